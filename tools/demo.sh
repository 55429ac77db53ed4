#!/usr/bin/env bash
# README command 1 (the main job): set up, build and install the SDK, build
# the sample_op extension out of tree against the installed SDK only, then
# inspect it, list its operators and call each one.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tools/setup_debian.sh
# Before configuring: CMake builds the Python package when it finds
# build/venv (cmake/StableTorchPython.cmake).
tools/setup_python.sh

echo "== building and installing the stabletorch SDK"
cmake --workflow --preset demo
cmake --install build/demo --prefix "$root/build/demo/sdk" >/dev/null
sdk="$root/build/demo/sdk"
st="$sdk/bin/stabletorch"

echo "== building extensions/sample_op out of tree against $sdk"
cmake -S extensions/sample_op -B build/sample_op -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$sdk" >/dev/null
cmake --build build/sample_op
plugin="$root/build/sample_op/libsample_op.so"

run() { echo; echo "\$ stabletorch $*"; "$st" "$@"; }
run version
run inspect "$plugin"
run ops --load "$plugin" --namespace sample_op
run run "$plugin" sample_op::scale_add_clamp randn:2x3 randn:2x3 0.5 -1.0 1.0
run run "$plugin" sample_op::row_normalize arange:3x4:float64
run run "$plugin" sample_op::scale_ arange:2x3 2.5
run run "$plugin" sample_op::weighted_sum "[ones:2x2,arange:2x2]" "[0.5,2.0]"
run run "$plugin" sample_op::moments arange:2x3:float64 "[1]" true
run run "$plugin" sample_op::describe randn:4x5 "a 4x5 tensor" true
run run "$plugin" sample_op::cast_to arange:2x2 int64 cpu
run run "$plugin" sample_op::masked_fill_value randint:2x3 mask:2x3 -1

echo; echo "== the same plugin from Python (import stabletorch), on NumPy data"
cmake --build build/demo --target stabletorch_python
PYTHONPATH="$root/build/demo/python" build/venv/bin/python python/examples/sample_op_demo.py "$plugin"
