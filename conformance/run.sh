#!/usr/bin/env bash
# The conformance stage (tools/test.sh conformance; docs/conformance.md):
# PyTorch 2.15's runtime is the oracle for stabletorch's.
#
#   1. fetch PyTorch's CPU runtime and headers (pinned wheel, build-local)
#   2. build libstabletorch (reusing the test stage's build/ci when it
#      exists) and install the SDK into the build tree
#   3. build the driver and the conformance plugin three times (PyTorch's
#      headers; the installed SDK, linked to libstabletorch and not)
#   4. compare our C declarations with PyTorch's (check_declarations.py);
#      run the compatibility plugin built with the headers of PyTorch 2.9
#      and 2.14 on stabletorch (abi_checks/check_pytorch_releases.py)
#   5. generate the operator cases, run everything on both runtimes and
#      compare (conformance/scripts/run_conformance.py prints the matrix,
#      the families and "N passed, N failed")
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/build/conformance"
python=${PYTHON:-python3}

echo "== fetching the oracle"
tools/fetch_pytorch.sh "$out/pytorch"
torch_lib="$out/pytorch/torch/lib"

if [ -n "${CONFORMANCE_STABLETORCH_BUILD:-}" ]; then
  # An already configured build tree of this checkout (e.g. a CPU-only one).
  st_build=$CONFORMANCE_STABLETORCH_BUILD
  echo "== building libstabletorch in $st_build (CONFORMANCE_STABLETORCH_BUILD)"
elif [ -f build/ci/CMakeCache.txt ]; then
  st_build=build/ci
  echo "== building libstabletorch in $st_build (the test stage's build)"
else
  st_build=build/conformance/stabletorch
  echo "== configuring and building libstabletorch in $st_build (CPU only)"
  cmake --preset conformance >/dev/null
fi
# Only what the SDK installs (cmake/StableTorchInstall.cmake, tools/): the C
# library, the core and the two command-line tools.
cmake --build "$st_build" --target stabletorch_c stabletorch_core stabletorch stabletorch-dtypes
rm -rf "$out/sdk"
cmake --install "$st_build" --prefix "$out/sdk" >/dev/null
st_lib=$(ls "$out"/sdk/lib*/libstabletorch.so | head -n 1)
[ -n "$st_lib" ] || { echo "conformance: the SDK install has no libstabletorch.so" >&2; exit 1; }

echo "== building the driver and the conformance plugin (both SDKs)"
cmake -S conformance -B "$out/bin" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$out/sdk" \
  -DCONFORMANCE_PYTORCH_INCLUDE="$out/pytorch/torch/include" >/dev/null
cmake --build "$out/bin"

echo "== checking the comparison rules"
"$python" conformance/scripts/test_compare.py 2>&1 | tail -n 1

echo "== comparing our C declarations with PyTorch's, level by level (abi_checks check 10)"
"$python" abi_checks/check_declarations.py --pytorch-include "$out/pytorch/torch/include" \
  --ours c_api/include --reviewed abi_checks/declaration_gaps.txt \
  --levels c_api/pytorch_function_levels.txt | grep -v "^    reviewed "

echo "== PyTorch releases' plugins on stabletorch: the oldest and the newest before the oracle"
# Only their headers are fetched (Range requests); the whole series runs
# on demand: the abi_pytorch_releases target of a build tree with tests.
"$python" abi_checks/check_pytorch_releases.py --host "$out/bin/abi_compat_host" \
  --cache "$out/pytorch_releases" --version 2.9.0 --version 2.14.0

echo "== generating the operator cases"
"$python" conformance/scripts/gen_cases.py --yaml core/native/native_functions.yaml --out "$out/cases"

echo "== running (oracle: $torch_lib/libtorch_cpu.so)"
"$python" conformance/scripts/run_conformance.py \
  --driver "$out/bin/conformance_driver" \
  --pytorch-lib "$torch_lib/libtorch_cpu.so" \
  --stabletorch-lib "$st_lib" \
  --plugin-pytorch "$out/bin/libconformance_ops_pytorch.so" \
  --plugin-stabletorch "$out/bin/libconformance_ops_stabletorch.so" \
  --plugin-stabletorch-unlinked "$out/bin/libconformance_ops_stabletorch_unlinked.so" \
  --plugin-cases conformance/cases/plugin_cases.txt \
  --op-cases "$out/cases" \
  --lists conformance \
  --out "$out/results" \
  --summary-md "$out/results/summary.md"
