#!/usr/bin/env bash
# Imports bake's glTF output in real Godot 4 (Debian sid's godot, 4.6, in the
# chroot tools/clients/chroot.sh builds; headless, no X server) with the
# .import sidecars `bake --godot 4` writes, and checks it against bake's JSON
# export; see godot4_check.py. Usage:
#   bash tools/clients/godot4_check.sh [--world BAKE SOURCE] [--test-scenes DIR] DIR_OR_FILE...
# Each glTF needs its .json sibling (-f glb,json) and its .import sidecar
# (under --test-scenes DIR, pairs without one get one written like bake's).
# --world also compares node origins with `BAKE eval --world` of SOURCE (the
# input the outputs were converted from).
# Exit status: 0 passed, 1 failed, 2 Godot 4 or python3-numpy missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
world=()
if [ "${1:-}" = "--world" ]; then
  world=(--world "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")" "$(cd "$(dirname "$3")" && pwd)/$(basename "$3")")
  shift 3
fi
if [ $# -eq 0 ]; then
  echo "usage: $0 [--world BAKE SOURCE] DIR_OR_FILE..." >&2
  exit 2
fi
chroot_sh="$here/chroot.sh"
if ! bash "$chroot_sh" run sid 'command -v godot' >/dev/null 2>&1; then
  echo "Godot 4 not installed in the sid chroot (bash tools/clients/chroot.sh ensure sid godot)" >&2
  exit 2
fi
# shellcheck source=numpy_python.sh
. "$here/numpy_python.sh"
# The chroot sees the host's /tmp at the same path.
project=$(mktemp -d /tmp/bake-godot4.XXXXXX)
log="$project.log"
trap 'rm -rf "$project" "$log"' EXIT
cat > "$project/project.godot" <<'EOT'
config_version=5

[application]

config/name="bake Godot 4 check"
EOT
cp "$here/godot4_check.gd" "$project/"
"$py" "$here/godot4_check.py" selftest
"$py" "$here/godot4_check.py" plan "$project" "$@"
status=0
bash "$chroot_sh" run sid "cd '$project' && godot --headless --path . --import" >"$log" 2>&1 || status=$?
"$py" "$here/godot4_check.py" imported "$project" || status=1
if [ "$status" -eq 0 ]; then
  bash "$chroot_sh" run sid "cd '$project' && godot --headless --path . -s res://godot4_check.gd" >>"$log" 2>&1 || status=$?
fi
if [ "$status" -ne 0 ] || [ ! -f "$project/actual.json" ]; then
  grep -E 'ERROR|SCRIPT|Parse' "$log" | grep -v 'X509Certificate\|PagedAllocator\|resources still in use' >&2 || true
  echo "Godot 4 check: Godot failed (exit $status)" >&2
  exit 1
fi
"$py" "$here/godot4_check.py" compare "$project" "${world[@]}"
