#!/bin/sh
# Instructions per call of the 1-element operator cases, next to a
# direct function call measured in the same run: runs
# `bench_ops --instructions` under callgrind, collecting only inside the
# measure_* functions, and divides each one's inclusive instruction count
# by the number of calls it makes.
#
#   tools/callgrind_ops.sh [build-dir]     (default: build/ci)
set -eu
build=${1:-build/ci}
bin="$build/bench/bench_ops"
[ -x "$bin" ] || { echo "error: $bin not found; build the bench_ops target first" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "error: valgrind not installed (apt-get install valgrind)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
calls=$(valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
          --toggle-collect='*measure_*' "$bin" --instructions 2>"$out/valgrind.log" |
        sed -n 's/^calls per measure_\* function: //p')
[ -n "$calls" ] || { cat "$out/valgrind.log" >&2; exit 1; }
callgrind_annotate --inclusive=yes --threshold=100 "$out/cg.out" 2>/dev/null |
  grep -E 'measure_[a-z0-9_]+' |
  sed -E 's/^ *([0-9,]+).*(measure_[a-z0-9_]+).*/\1 \2/' |
  tr -d ',' |
  awk -v calls="$calls" '{ printf "%-24s %8.0f instructions/call\n", $2, $1 / calls }'
