#!/usr/bin/env bash
# Freezes the SDK headers of a release into abi_checks/baselines/<version>/include/
# (headeronly/include + c_api/include + stable/include + the generated
# stabletorch/version.h), and the compatibility plugin's source into
# baselines/<version>/compat_plugin.cpp, so that the plugin of that release
# is rebuilt, unchanged, against exactly what the release shipped, forever.
#
#   abi_checks/freeze_headers.sh [--force] <version>     e.g. 0.1.0
#
# <version> must be the project version in the top-level CMakeLists.txt
# (the headers are those of the checkout you run it in). Refuses to
# overwrite an existing frozen copy unless --force: a released baseline
# never changes.
set -euo pipefail

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }
force=0
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  --force) force=1; shift ;;
esac
[[ $# -eq 1 ]] || { usage >&2; exit 2; }
version=$1
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "error: version must be X.Y.Z, got '$version'" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
project_version=$(sed -n 's/^project(stabletorch VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
if [[ "$project_version" != "$version" ]]; then
  echo "error: the tree is stabletorch $project_version, not $version" >&2
  exit 1
fi
dest="$root/abi_checks/baselines/$version/include"
if [[ -e "$dest" && $force -eq 0 ]]; then
  echo "error: $dest exists; a released baseline never changes (use --force only before the release is tagged)" >&2
  exit 1
fi
rm -rf "$dest"
mkdir -p "$dest"
for tree in headeronly/include c_api/include stable/include; do
  if [[ -d "$root/$tree" ]]; then
    (cd "$root/$tree" && find . -name '*.h' -exec cp --parents {} "$dest" \;)
  fi
done
# The generated version header, configured as CMake would.
IFS=. read -r major minor patch <<<"$version"
sed -e "s/@PROJECT_VERSION_MAJOR@/$major/" -e "s/@PROJECT_VERSION_MINOR@/$minor/" \
    -e "s/@PROJECT_VERSION_PATCH@/$patch/" -e "s/@PROJECT_VERSION@/$version/" \
    "$root/headeronly/include/stabletorch/version.h.in" > "$dest/stabletorch/version.h"
cp "$root/abi_checks/compat_plugin/compat_plugin.cpp" "$dest/../compat_plugin.cpp"
cat > "$dest/README.md" <<MD
Frozen SDK headers of stabletorch $version (headeronly, c_api, stable), written
by abi_checks/freeze_headers.sh. Never edit: the compatibility plugin is built
against them to prove that plugins of $version run on every later core.
MD
echo "froze $(find "$dest" -name '*.h' | wc -l) headers into $dest"
