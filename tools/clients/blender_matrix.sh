#!/usr/bin/env bash
# The Blender client matrix: bake's output checked in Blender 3.4 (the
# host's bookworm build), 4.3 (a trixie chroot) and 5.2 (a sid chroot), the
# chroots built by chroot.sh. Usage (tools/test.sh runs it):
#
#   bash tools/clients/blender_matrix.sh BAKE WORKDIR OUTPUT_DIR...
#
# For every Blender: the stock importer's check (blender_check.py: every
# glTF with its JSON, poses against the JSON; blender_assets.py: meshes,
# materials and images) on OUTPUT_DIR..., and the add-on's test
# (tools/blender/bake_import_test.py) on the demo and the samples the issue
# names, baked here into WORKDIR/addon. One Blender runs the dense pose
# comparison (every key, midpoint and probe of every clip); the others
# compare at most $SAMPLED queries per clip (docs/clients.md, "The client
# matrix"). The Blenders run side by side; each prints its counts and the
# seconds each part took.
#
# A Blender that is not installed is skipped with the reason, unless CI=true:
# then it fails the run (.ci/run installs all three).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 3 ] || { echo "usage: $0 BAKE WORKDIR OUTPUT_DIR..." >&2; exit 2; }
bake=$1 work=$2
shift 2
DENSE=${BAKE_BLENDER_DENSE:-5.2}
SAMPLED=${BAKE_BLENDER_SAMPLED:-48}

# The add-on's inputs: the demo, the Bass (30 fps, looping clips), S01
# (pointer animations), Gerudo (show_clip and world poses) and MenuLevel's
# clips one file each (--split: Record Anim's 75.026 fps).
addon=$work/addon
"$bake" -q -f glb,json -o "$addon" testdata/demo
if [ -d ../shared/samples ]; then
  s=../shared/samples
  "$bake" -q -f glb,json -o "$addon" $s/bfres/Animal_Bass_Animation.bfres $s/ccsf/S01.CCS \
    $s/bfres/Npc_Gerudo_Queen_Animation.bfres
  "$bake" -q --split -f glb,json -o "$addon/split" $s/virtools/BallanceModding/MenuLevel.nmo
fi

# runner prints how to run a command in the named Blender, or fails with why.
runner() {
  case $1 in
    3.4)
      command -v blender >/dev/null || { echo "blender not installed (apt-get install -y blender python3-numpy)"; return 1; }
      echo "bash -c" ;;
    4.3 | 5.2)
      local suite=trixie
      [ "$1" = 5.2 ] && suite=sid
      local dir; dir=$(bash tools/clients/chroot.sh dir $suite)
      [ -x "$dir/usr/bin/blender" ] || { echo "no Blender in the $suite chroot (bash tools/clients/chroot.sh ensure $suite blender python3-numpy)"; return 1; }
      echo "bash tools/clients/chroot.sh run $suite" ;;
  esac
}

# part runs one check (a command for $run) in one Blender, prints its output
# without Blender's start-up chatter, then its wall and CPU seconds; returns
# the check's status.
part() {
  local name=$1 cmd=$2 status=0 out
  out=$(mktemp)
  local TIMEFORMAT="(Blender $version $name: %R s wall, %U s user + %S s system CPU)"
  time { $run "$cmd" >"$out" 2>&1 || status=$?; }
  grep -avE '^(Read prefs|Warning: Blender not compiled|Color management|[0-9:]+ \| INFO|Blender quit|$)' "$out" || true
  rm -f "$out"
  return $status
}

# one runs every Blender check in one Blender; its output goes to its log.
one() {
  local version=$1 run=$2 status=0
  shift 2
  local flags=(--sampled "$SAMPLED")
  [ "$version" = "$DENSE" ] && flags=()
  local blender="blender -b --factory-startup --python-exit-code 1"
  part "stock check" "bash tools/clients/blender_check.sh ${flags[*]} $*" || status=1
  part "asset check" "$blender -P tools/clients/blender_assets.py -- $*" || status=1
  part "add-on test" "$blender -P tools/blender/bake_import_test.py -- $addon" || status=1
  return $status
}

pids=() names=()
for version in 3.4 4.3 5.2; do
  if ! run=$(runner $version); then
    if [ "${CI:-}" = true ]; then
      echo "Blender $version: $run" >&2
      exit 1
    fi
    echo "(Blender $version skipped: $run)"
    continue
  fi
  log=$work/blender-$version.log
  one "$version" "nice $run" "$@" >"$log" 2>&1 &
  pids+=($!) names+=("$version")
done
failed=0
for k in "${!pids[@]}"; do
  version=${names[$k]} log=$work/blender-${names[$k]}.log
  if wait "${pids[$k]}"; then
    grep -aE '^(Blender check:|Blender assets:|bake_import add-on test:|\((Blender |pointers:|world poses))' "$log" | sed "s/^/[Blender $version] /"
  else
    echo "[Blender $version] FAILED:" >&2
    cat "$log" >&2
    failed=1
  fi
done
exit $failed
