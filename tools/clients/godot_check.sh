#!/usr/bin/env bash
# Imports bake's glTF output in real Godot 3 (Debian's godot3, 3.2.3, headless
# under xvfb-run) with the .import sidecars `bake --godot 3` writes, and
# checks it against bake's JSON export; see godot_check.py. Usage:
#   bash tools/clients/godot_check.sh DIR_OR_FILE...
# Each glTF needs its .json sibling (-f glb,json) and its .import sidecar.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -eq 0 ]; then
  echo "usage: $0 DIR_OR_FILE..." >&2
  exit 2
fi
for tool in godot3 xvfb-run; do
  if ! command -v "$tool" >/dev/null; then
    echo "$tool not installed (Debian: apt-get install -y godot3 xvfb python3-numpy)" >&2
    exit 2
  fi
done
# shellcheck source=numpy_python.sh
. "$here/numpy_python.sh"
project=$(mktemp -d)
log="$project.log"
trap 'rm -rf "$project" "$log"' EXIT
cat > "$project/project.godot" <<'EOF'
config_version=4

[application]

config/name="bake Godot check"
EOF
cp "$here/godot_check.gd" "$project/"
"$py" "$here/godot_check.py" plan "$project" "$@"
# The editor pass imports every file with its sidecar; the script pass reads
# the imported scenes. Godot's own chatter goes to a log, shown on failure.
# Godot 3.2.3's editor crashes (SIGSEGV) while quitting after `--quit`, once
# the import is done and saved, so that pass is judged by what it imported.
status=0
xvfb-run -a godot3 --no-window --editor --quit --path "$project" >"$log" 2>&1 || true
"$py" "$here/godot_check.py" imported "$project" || status=1
if [ "$status" -eq 0 ]; then
  xvfb-run -a godot3 --no-window --path "$project" -s res://godot_check.gd >>"$log" 2>&1 || status=$?
fi
if [ "$status" -ne 0 ] || [ ! -f "$project/actual.json" ]; then
  grep -v 'free_static\|memory.cpp' "$log" >&2 || true
  echo "Godot check: Godot failed (exit $status)" >&2
  exit 1
fi
"$py" "$here/godot_check.py" compare "$project"
