#!/usr/bin/env bash
# The Godot client matrix: Godot 3.2.3 (the host's godot3, under xvfb-run)
# and Godot 4.6 (Debian sid's godot, in the chroot tools/clients/chroot.sh
# builds) import bake's output with its --godot sidecars, and each check
# compares what Godot plays with bake's JSON. Usage:
#   bash tools/clients/godot_matrix.sh [--test-scenes DIR] BAKE WORKDIR INPUT...
# BAKE is a built bake, WORKDIR a scratch folder, INPUTs the files and
# folders to convert (the demo inputs and ../shared/samples); --test-scenes
# names glTF + JSON pairs written by the Go tests (the exporter's asset
# scene animates every pointer kind), which Godot 4 also imports.
# A client that is not installed skips with the reason; with CI=true it
# fails the run instead. Each step prints its time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
scenes=()
if [ "${1:-}" = "--test-scenes" ]; then
  scenes=(--test-scenes "$2")
  shift 2
fi
if [ $# -lt 3 ]; then
  echo "usage: $0 [--test-scenes DIR] BAKE WORKDIR INPUT..." >&2
  exit 2
fi
bake=$1 work=$2
shift 2
mkdir -p "$work"

# missing reports a client that cannot run: a failure in CI, a skip elsewhere.
missing() {
  if [ "${CI:-}" = true ]; then
    echo "Godot matrix: $1 (CI=true: a client that cannot run fails the run)" >&2
    exit 1
  fi
  echo "($1: skipped)"
}

# timed runs a command and prints how long it took; a failure is recorded
# and the other checks still run.
failed=0
timed() {
  local label=$1 start=$SECONDS status=0
  shift
  "$@" || status=$?
  echo "($label: $((SECONDS - start)) s)"
  if [ "$status" -ne 0 ]; then
    echo "Godot matrix: $label failed (exit $status)" >&2
    failed=1
  fi
}

echo "== Godot 3.2.3 client check"
if ! command -v godot3 >/dev/null || ! command -v xvfb-run >/dev/null; then
  missing "godot3 or xvfb-run not installed (apt-get install -y godot3 xvfb python3-numpy)"
else
  "$bake" -q --godot 3 -f glb,json -o "$work/godot3" "$@"
  timed "Godot 3 check" bash "$here/godot_check.sh" "$work/godot3"
fi

echo "== Godot 4.6 client check"
status=0
bash "$here/chroot.sh" run sid 'command -v godot' >/dev/null 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  missing "Godot 4 not installed in the sid chroot (bash tools/clients/chroot.sh ensure sid godot)"
  exit "$failed"
fi
"$bake" -q --godot 4 -f glb,json -o "$work/godot4" "$@"
timed "Godot 4 check" bash "$here/godot4_check.sh" "${scenes[@]}" "$work/godot4"

# The Bass against bake eval --world: every source frame within 1e-4 m, of
# --tolerance 0 output (issue 19) and of the default output (issue 20).
bass=
for input in "$@"; do
  for f in "$input/bfres/Animal_Bass_Animation.bfres" "$input"; do
    if [ -f "$f" ] && [ "$(basename "$f")" = Animal_Bass_Animation.bfres ]; then bass=$f; fi
  done
done
if [ -n "$bass" ]; then
  echo "== Godot 4.6: the Bass at every source frame (--tolerance 0) against bake eval --world"
  "$bake" -q --tolerance 0 --godot 4 -f glb,json -o "$work/bass-exact" "$bass"
  timed "Godot 4 Bass check" bash "$here/godot4_check.sh" --world "$bake" "$bass" "$work/bass-exact"
  echo "== Godot 4.6: the Bass's default output against bake eval --world"
  "$bake" -q --godot 4 -f glb,json -o "$work/bass-default" "$bass"
  timed "Godot 4 Bass default check" bash "$here/godot4_check.sh" --world "$bake" "$bass" "$work/bass-default"
fi
exit "$failed"
