#!/usr/bin/env bash
# Runs every test bake has: go vet, the Go tests, then a real conversion of
# the demo inputs (and of ../shared/samples when present) in every output
# format, checked by the Khronos glTF-Validator and by the client checks.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

echo "== go vet"
go vet ./...

echo "== go test"
# cmd/bake converts the demo and the samples many times (shards, determinism):
# allow it more than go test's default 10 minutes on a slow machine.
go test -count=1 -timeout 40m ./...

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/bake" ./cmd/bake

echo "== bake the demo inputs"
"$work/bake" -q -f glb,gltf,json -o "$work/demo" testdata/demo
inputs=("$work/demo")
if [ -d ../shared/samples ]; then
  echo "== bake the real samples in ../shared/samples"
  "$work/bake" -q -f glb,gltf,json -o "$work/samples" ../shared/samples
  inputs+=("$work/samples")
else
  echo "(../shared/samples absent: real-sample conversion skipped)"
fi

echo "== the exporter's own test scenes (every asset kind and pointer)"
BAKE_DUMP_DIR="$work/unit" go test -count=1 -run ForValidator ./export/gltf/ >/dev/null
inputs+=("$work/unit")

echo "== glTF-Validator"
if [ ! -d tools/validate/node_modules ]; then
  (cd tools/validate && npm ci --no-audit --no-fund --silent)
fi
node tools/validate/validate.mjs "${inputs[@]}"

echo "== three.js client check"
if [ ! -d tools/clients/node_modules ]; then
  (cd tools/clients && npm ci --no-audit --no-fund --silent)
fi
node --test tools/clients/expected.test.mjs tools/clients/clients.test.mjs tools/clients/skins.test.mjs
node tools/clients/three_check.mjs "${inputs[@]}"
node tools/clients/three_assets.mjs "${inputs[@]}"
node tools/clients/three_pointers.mjs "${inputs[@]}"

echo "== Blender client check"
if command -v blender >/dev/null; then
  bash tools/clients/blender_check.sh "${inputs[@]}"
  status=0
  blender -b --factory-startup --python-exit-code 1 -P tools/clients/blender_assets.py -- "${inputs[@]}" \
    >"$work/blender_assets.log" 2>&1 || status=$?
  grep -E '^Blender assets:' "$work/blender_assets.log" || true
  if [ "$status" -ne 0 ]; then cat "$work/blender_assets.log" >&2; exit 1; fi
else
  echo "(blender not installed: Blender client check skipped; apt-get install -y blender python3-numpy)"
fi

# The Blender add-on and the Godot check read bake's Blender and Godot
# outputs: the demo inputs, and of the samples the files the acceptance
# names (Animal_Bass, S01, MenuLevel's clips one file each).
addon_inputs=(testdata/demo)
if [ -d ../shared/samples ]; then
  addon_inputs+=(../shared/samples/bfres/Animal_Bass_Animation.bfres ../shared/samples/ccsf/S01.CCS)
fi

echo "== Blender add-on (tools/blender/bake_import.py) test"
if command -v blender >/dev/null; then
  "$work/bake" -q -f glb,json -o "$work/addon" "${addon_inputs[@]}"
  if [ -d ../shared/samples ]; then
    "$work/bake" -q --split -f glb,json -o "$work/addon/split" ../shared/samples/virtools/BallanceModding/MenuLevel.nmo
  fi
  status=0
  blender -b --factory-startup --python-exit-code 1 -P tools/blender/bake_import_test.py -- "$work/addon" \
    >"$work/addon.log" 2>&1 || status=$?
  grep -E '^bake_import add-on test:' "$work/addon.log" || true
  if [ "$status" -ne 0 ]; then cat "$work/addon.log" >&2; exit 1; fi
else
  echo "(blender not installed: add-on test skipped; apt-get install -y blender python3-numpy)"
fi

echo "== Godot 3 client check"
if command -v godot3 >/dev/null && command -v xvfb-run >/dev/null; then
  godot_inputs=(testdata/demo)
  if [ -d ../shared/samples ]; then godot_inputs+=(../shared/samples); fi
  "$work/bake" -q --godot 3 -f glb,json -o "$work/godot" "${godot_inputs[@]}"
  bash tools/clients/godot_check.sh "$work/godot"
else
  echo "(godot3 or xvfb-run not installed: Godot client check skipped; apt-get install -y godot3 xvfb python3-numpy)"
fi

echo "== bake view in headless Chromium (tools/view)"
if command -v chromium >/dev/null; then
  [ -d tools/view/node_modules ] || (cd tools/view && npm ci --no-audit --no-fund --silent)
  node tools/view/view_test.mjs "$work/bake" "$work/demo" $([ -d "$work/samples" ] && echo "$work/samples")
else
  echo "(chromium not installed: bake view browser test skipped; apt-get install -y chromium)"
fi

echo "all tests passed"
