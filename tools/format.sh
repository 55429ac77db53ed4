#!/usr/bin/env bash
# Formatting of every C, C++ and CUDA source in the repository, by the
# rules of .clang-format (clang-format 14, Debian's).
#
#   tools/format.sh            rewrite the files in place
#   tools/format.sh --check    change nothing; list each file that differs
#                              and fail (the format stage of tools/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=fix
case "${1:-}" in
  --check) mode=check ;;
  "") ;;
  *) echo "usage: tools/format.sh [--check]" >&2; exit 2 ;;
esac
command -v clang-format >/dev/null || { echo "tools/format.sh: clang-format is not installed (tools/setup_debian.sh installs it)" >&2; exit 1; }

# Tracked sources only: generated code lives in build trees.
mapfile -t files < <(git ls-files -- '*.c' '*.h' '*.cpp' '*.cu' '*.cuh')
if [ "$mode" = fix ]; then
  printf '%s\0' "${files[@]}" | xargs -0 -n 50 -P 2 clang-format -i --style=file
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  if ! clang-format --style=file --dry-run -Werror "$f" >/dev/null 2>&1; then
    bad+=("$f")
  fi
done
if [ ${#bad[@]} -ne 0 ]; then
  echo "tools/format.sh: ${#bad[@]} file(s) differ from .clang-format; run tools/format.sh:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "tools/format.sh: ${#files[@]} files formatted as .clang-format says"
