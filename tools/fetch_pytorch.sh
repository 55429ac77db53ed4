#!/usr/bin/env bash
# Fetches the conformance oracle: PyTorch 2.15's CPU runtime and headers,
# from the PyPI wheel pinned by version and sha256, into a folder of the
# build tree (never into the system or a Python environment).
#
#   tools/fetch_pytorch.sh [DEST]      default DEST: build/conformance/pytorch
#
# DEST receives torch/include/**, torch/lib/{libtorch_cpu.so,libc10.so,
# libgomp.so.1} and the two CUDA libraries libtorch_cpu.so needs at load
# time (libcudart.so.13, libcupti.so.13: taken from the local CUDA toolkit,
# else from NVIDIA's PyPI wheels) next to them. A stamp file naming the
# wheel's sha256 makes later runs a no-op; the wheel stays in DEST/download,
# where pip finds it again (hash checked) if the tree is removed. Without
# network access to PyPI the script fails with a message saying so: the
# conformance stage never passes by skipping its oracle.
set -euo pipefail
cd "$(dirname "$0")/.."

wheel=torch-2.15.0-cp311-cp311-manylinux_2_28_x86_64.whl
sha256=48c2d861134c0b5697c7602cb5ffa68f62a2989fdcd1717e593356f67996ca1e
dest=${1:-build/conformance/pytorch}
stamp="$dest/.fetched-$sha256"
lib="$dest/torch/lib"
python=${PYTHON:-python3}

fail() { echo "tools/fetch_pytorch.sh: $*" >&2; exit 1; }

if [ -f "$stamp" ]; then
  echo "PyTorch 2.15.0 already fetched in $dest"
  exit 0
fi

mkdir -p "$dest/download"
# --require-hashes makes pip refuse any other file, even from its cache.
req="$dest/download/requirements.txt"
printf 'torch==2.15.0 --hash=sha256:%s\n' "$sha256" > "$req"
echo "== downloading $wheel (pinned by sha256) into $dest/download"
if ! "$python" -m pip download --quiet --no-deps --require-hashes \
    --python-version 3.11 --platform manylinux_2_28_x86_64 \
    --implementation cp --only-binary=:all: \
    -r "$req" -d "$dest/download"; then
  fail "could not download torch==2.15.0 from PyPI (no network, or the pinned wheel changed). The conformance stage needs PyTorch as its oracle and does not pass without it."
fi
[ -f "$dest/download/$wheel" ] || fail "pip did not produce $wheel"
echo "$sha256  $dest/download/$wheel" | sha256sum --check --quiet \
  || fail "$wheel does not have the pinned sha256 $sha256"

echo "== extracting headers and the CPU runtime"
rm -rf "$dest/torch"
"$python" - "$dest/download/$wheel" "$dest" <<'PY'
import sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
wanted_libs = {"torch/lib/libtorch_cpu.so", "torch/lib/libc10.so", "torch/lib/libgomp.so.1"}
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist()
             if n.startswith("torch/include/") or n in wanted_libs]
    missing = wanted_libs - set(names)
    if missing:
        sys.exit("the wheel lacks " + ", ".join(sorted(missing)))
    z.extractall(dest, names)
PY
chmod +x "$lib"/*.so*

# libtorch_cpu.so links libcudart.so.13 and libcupti.so.13 even for CPU work.
# FETCH_PYTORCH_IGNORE_LOCAL_CUDA=1 takes them from PyPI even when a local
# toolkit has them (to exercise that path).
find_cuda_lib() {
  local name=$1 dir
  for dir in /usr/local/cuda*/lib* /usr/local/lib; do
    [ -e "$dir/$name" ] && { readlink -f "$dir/$name"; return 0; }
  done
  ldconfig -p 2>/dev/null | awk -v n="$name" '$1 == n { print $NF; exit }' | grep . && return 0
  return 1
}
# The NVIDIA wheels that carry each library when no toolkit is installed,
# at the CUDA release torch 2.15 requires (its cuda-toolkit==13.2.2).
declare -A cuda_wheel=([libcudart.so.13]="nvidia-cuda-runtime==13.2.*"
                       [libcupti.so.13]="nvidia-cuda-cupti==13.2.*")
for name in libcudart.so.13 libcupti.so.13; do
  if [ -z "${FETCH_PYTORCH_IGNORE_LOCAL_CUDA:-}" ] && path=$(find_cuda_lib "$name"); then
    ln -sf "$path" "$lib/$name"
    continue
  fi
  requirement=${cuda_wheel[$name]}
  echo "== $name: taking it from PyPI's $requirement"
  platforms=()
  for tag in manylinux_2_28 manylinux_2_27 manylinux_2_25 manylinux_2_17 manylinux2014; do
    platforms+=(--platform "${tag}_x86_64")
  done
  rm -rf "$dest/download/$name.d"
  "$python" -m pip download --quiet --no-deps --python-version 3.11 "${platforms[@]}" \
      --only-binary=:all: "$requirement" -d "$dest/download/$name.d" \
    || fail "could not download $requirement from PyPI for $name"
  "$python" - "$dest/download/$name.d" "$name" "$lib" <<'PY'
import glob, os, sys, zipfile
folder, name, lib = sys.argv[1:]
for wheel in sorted(glob.glob(os.path.join(folder, "*.whl"))):
    with zipfile.ZipFile(wheel) as z:
        for member in z.namelist():
            if os.path.basename(member) == name:
                target = os.path.join(lib, name)
                with z.open(member) as src, open(target, "wb") as out:
                    out.write(src.read())
                os.chmod(target, 0o755)
                sys.exit(0)
sys.exit(f"no {name} in the wheels downloaded into {folder}")
PY
done

# Every library the runtime needs must now resolve inside $lib or the system.
if LD_LIBRARY_PATH="$lib" ldd "$lib/libtorch_cpu.so" | grep -q "not found"; then
  LD_LIBRARY_PATH="$lib" ldd "$lib/libtorch_cpu.so" | grep "not found" >&2
  fail "libtorch_cpu.so still has unresolved libraries"
fi
touch "$stamp"
echo "PyTorch 2.15.0 ready in $dest"
