#!/usr/bin/env bash
# Runs the project's benchmarks once, in one process per package, so their
# figures can be compared as ratios from one run. Usage: bash tools/bench.sh [benchtime]
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-1s}
go test -run '^$' -bench . -benchtime "$t" -benchmem \
  ./sample ./import/oni ./import/virtools ./import/ccs ./import/bfres ./import/sarc ./cmd/bake 2>&1 |
  grep -E '^(Benchmark|ok|FAIL|pkg:)'
