#!/usr/bin/env bash
# Rewrites view/vendor/: the JavaScript bake view's page loads, taken from the
# npm packages at the exact versions below, gzipped (gzip -n: no name or
# time, so the bytes depend on the input only) with each package's licence.
# bake serves them as they are with Content-Encoding: gzip. VERSIONS lists
# every file with the SHA-256 of its uncompressed bytes, as npm ships them.
set -euo pipefail
cd "$(dirname "$0")/../.."
three=0.187.0
pointer=1.0.7
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "three@$three" "@needle-tools/three-animation-pointer@$pointer" >/dev/null)
mkdir -p "$tmp/three" "$tmp/pointer"
tar xzf "$tmp/three-$three.tgz" -C "$tmp/three"
tar xzf "$tmp/needle-tools-three-animation-pointer-$pointer.tgz" -C "$tmp/pointer"
out=view/vendor
rm -rf "$out"
mkdir -p "$out/three" "$out/pointer"
files=(
  "three three/build/three.module.js"
  "three three/build/three.core.js"
  "three three/examples/jsm/loaders/GLTFLoader.js"
  "three three/examples/jsm/utils/BufferGeometryUtils.js"
  "three three/examples/jsm/utils/SkeletonUtils.js"
  "three three/examples/jsm/controls/OrbitControls.js"
  "pointer pointer/dist/three-animation-pointer.js"
)
{
  echo "# npm packages vendored by tools/view/vendor.sh; sha256 of each file as the package ships it"
  echo "three@$three MIT (three/LICENSE)"
  echo "@needle-tools/three-animation-pointer@$pointer MIT (pointer/LICENSE.md)"
  for f in "${files[@]}"; do
    read -r pkg rel <<<"$f"
    src="$tmp/$pkg/package/${rel#*/}"
    mkdir -p "$out/$(dirname "$rel")"
    gzip -n -9 -c "$src" >"$out/$rel.gz"
    echo "$(sha256sum "$src" | cut -d' ' -f1)  $rel"
  done
} >"$out/VERSIONS"
cp "$tmp/three/package/LICENSE" "$out/three/LICENSE"
cp "$tmp/pointer/package/LICENSE.md" "$out/pointer/LICENSE.md"
echo "vendored three@$three and @needle-tools/three-animation-pointer@$pointer into $out"
