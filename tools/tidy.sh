#!/usr/bin/env bash
# clang-tidy with the bug-finding checks of .clang-tidy over the sources of
# a configured build tree (its compile_commands.json). On demand: a full
# run takes far longer than the CI budget allows on two cores.
#
#   tools/tidy.sh [BUILD_DIR] [FILE_REGEX]     default: build/ci, every file
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/ci}
filter=${2:-.}
[ -f "$build/compile_commands.json" ] || { echo "tools/tidy.sh: $build has no compile_commands.json; configure it first" >&2; exit 1; }
command -v run-clang-tidy >/dev/null || { echo "tools/tidy.sh: run-clang-tidy is not installed (Debian package clang-tidy)" >&2; exit 1; }
# clang 14 does not know gcc's -mtls-dialect=gnu2 (cmake/StableTorchOptions.cmake):
# a copy of the database without it.
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
sed 's/ -mtls-dialect=gnu2//g' "$build/compile_commands.json" > "$db/compile_commands.json"
# Sources of this repository only (not generated files, not third-party).
run-clang-tidy -p "$db" -quiet -j "$(nproc)" "^$PWD/(core|c_api|stable|python|tools|extensions)/.*${filter}"
