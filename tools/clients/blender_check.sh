#!/usr/bin/env bash
# Plays bake's glTF output in Blender (headless) and compares it with bake's
# JSON export; see blender_check.py. Usage:
#   bash tools/clients/blender_check.sh DIR_OR_FILE...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -eq 0 ]; then
  echo "usage: $0 DIR_OR_FILE..." >&2
  exit 2
fi
if ! command -v blender >/dev/null; then
  echo "blender not installed (Debian: apt-get install -y blender)" >&2
  exit 2
fi
# Blender's own start-up chatter goes to a log, shown only when it fails.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
blender -b --factory-startup --python-exit-code 1 -P "$here/blender_check.py" -- "$@" \
  2> >(grep -v '^\(Read prefs\|Warning: Blender not compiled\|Color management\)' >&2) \
  > "$log" || status=$?
grep -E '^(Blender check:|\()' "$log" || true
if [ "$status" -ne 0 ] && ! grep -q '^Blender check:' "$log"; then
  cat "$log" >&2
fi
exit "$status"
