# Sourced by conformance/run.sh and conformance/sweep.sh: steps 1-3 of the
# conformance stage. Fetches PyTorch's runtime, builds libstabletorch,
# installs the SDK and builds the driver and the conformance plugin; sets
#   root out torch_lib st_build st_lib python
# The caller has `set -euo pipefail` and runs from the checkout's root.
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
