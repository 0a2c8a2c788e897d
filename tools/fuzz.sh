#!/usr/bin/env bash
# Runs every fuzz target of the project for the given time each (default
# 10m), one after the other. Findings land in the package's
# testdata/fuzz/<Target>/ folder; commit them as regression tests.
# Usage: bash tools/fuzz.sh [DURATION] [PACKAGE-PATTERN]
set -euo pipefail
cd "$(dirname "$0")/.."
time=${1:-10m}
pattern=${2:-./...}
status=0
for pkg in $(go list "$pattern"); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    echo "== $pkg $target ($time)"
    if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$time" "$pkg"; then
      status=1
    fi
  done
done
exit $status
