#!/usr/bin/env bash
# Writes the ABI baseline of a release into abi_checks/baselines/<version>/:
#   exported_symbols.txt  golden list: every exported C-ABI function + level
#   abi_level.txt         the stable-ABI level the release claims
#   libstabletorch.abi    abidw dump of libstabletorch (public types only)
#   release_commit.txt    the commit the release is cut from (HEAD): check 5
#                         takes the release's SDK headers and compatibility
#                         plugin source from it (release_sources.py)
#
#   abi_checks/refresh_baseline.sh [--build-dir DIR] [--force] <version>
#
# Run it once, when cutting <version>; it builds libstabletorch (Release,
# with DWARF) of this exact checkout first. Default build dir: build/ci.
# Re-writing the current release before it is tagged, in one command:
#   abi_checks/refresh_baseline.sh --force 0.1.0
# A committed baseline is never regenerated (--force only before the
# release is tagged). See docs/abi_policy.md.
set -euo pipefail

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/ci"
force=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --build-dir) build=$2; shift 2 ;;
    --force) force=1; shift ;;
    -*) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
    *) break ;;
  esac
done
[[ $# -eq 1 ]] || { usage >&2; exit 2; }
version=$1
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "error: version must be X.Y.Z" >&2; exit 2; }

project_version=$(sed -n 's/^project(stabletorch VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
[[ "$project_version" == "$version" ]] || { echo "error: the tree is stabletorch $project_version, not $version" >&2; exit 1; }

# Build the library of this checkout first, so the baseline never comes
# from a stale binary (configures build/ci when it does not exist yet).
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  [[ "$build" == "$root/build/ci" ]] || { echo "error: $build is not a configured build dir" >&2; exit 1; }
  (cd "$root" && cmake --preset ci >/dev/null)
fi
cmake --build "$build" --target stabletorch_c >/dev/null
lib=$(find "$build" -name 'libstabletorch.so.*' -type f 2>/dev/null | sort | tail -1)
[[ -n "$lib" ]] || { echo "error: no libstabletorch.so.* under $build; build target stabletorch_c first" >&2; exit 1; }
dest="$root/abi_checks/baselines/$version"
if [[ -e "$dest/exported_symbols.txt" && $force -eq 0 ]]; then
  echo "error: $dest/exported_symbols.txt exists; a released baseline never changes" >&2
  exit 1
fi

level=$(sed -n 's/^#define TORCH_VERSION "\([0-9.]*\)"/\1/p' "$root/headeronly/include/torch/headeronly/version.h")
mkdir -p "$dest"
python3 "$root/abi_checks/check_exported_symbols.py" --library "$lib" \
  --versions "$root/c_api/shim_function_versions.txt" --write-golden "$dest" --abi-level "$level"
python3 "$root/abi_checks/check_abi_diff.py" --library "$lib" \
  --headers-dir "$root/c_api/include" --headers-dir "$root/headeronly/include" \
  --dump "$dest/libstabletorch.abi"
# The SDK paths must be committed: the release's headers are read back from
# this commit, so uncommitted edits would not be part of the record.
if [[ -n "$(git -C "$root" status --porcelain -- headeronly/include c_api/include stable/include abi_checks/compat_plugin)" ]]; then
  echo "error: uncommitted changes in the SDK headers or the compatibility plugin; commit them first" >&2
  exit 1
fi
{
  echo "# The commit stabletorch $version was cut from. Its SDK headers and its"
  echo "# compatibility plugin source come from here (abi_checks/release_sources.py)."
  git -C "$root" rev-parse HEAD
} > "$dest/release_commit.txt"
# Sanity: the fresh baseline passes its own checks.
python3 "$root/abi_checks/check_exported_symbols.py" --library "$lib" \
  --versions "$root/c_api/shim_function_versions.txt" --baselines "$root/abi_checks/baselines"
python3 "$root/abi_checks/check_abi_diff.py" --library "$lib" --baseline "$dest/libstabletorch.abi" \
  --headers-dir "$root/c_api/include" --headers-dir "$root/headeronly/include"
echo "baseline of $version (stable-ABI level $level) written to $dest; commit it with the release"
