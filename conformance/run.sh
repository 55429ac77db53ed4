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
#   6. the sweep's smoke run: a few operators timed on both runtimes
#      (conformance/scripts/sweep.py); reports, never judges a ratio
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# Steps 1-3: fetch, build, install, build the driver and the plugins.
source conformance/prepare.sh

echo "== checking the comparison rules"
"$python" conformance/scripts/test_compare.py 2>&1 | tail -n 1
echo "== checking the sweep's reduction of passes"
"$python" conformance/scripts/test_sweep.py 2>&1 | tail -n 1

echo "== comparing our C declarations with PyTorch's, level by level (abi_checks check 10)"
"$python" abi_checks/check_declarations.py --pytorch-include "$out/pytorch/torch/include" \
  --ours c_api/include --reviewed abi_checks/declaration_gaps.txt \
  --levels c_api/pytorch_function_levels.txt | grep -v "^    reviewed "

echo "== PyTorch releases' plugins on stabletorch: the oldest and the newest before the oracle"
# Only their headers are fetched (Range requests); the whole series runs
# on demand: the abi_pytorch_releases target of a build tree with tests.
"$python" abi_checks/check_pytorch_releases.py --host "$out/bin/abi_compat_host" \
  --cache "$out/pytorch_releases" --version 2.9.0 --version 2.14.0

echo "== comparing our C++ headers, macros and declarations with PyTorch's, level by level (check 10, C++ half)"
if command -v clang++ >/dev/null; then
  "$python" abi_checks/check_cxx_declarations.py --pytorch-include "$out/pytorch/torch/include" \
    --ours headeronly/include --ours stable/include --ours c_api/include \
    --ours "$st_build/generated/include" \
    --header-list tests/headeronly/pytorch_headeronly_headers.txt \
    --reviewed abi_checks/cxx_declaration_gaps.txt | grep -v "^    reviewed "
else
  echo "conformance: clang++ not found; the C++ declaration check is skipped" >&2
fi

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

# The sweep's smoke run: a few operators at one size, to keep the timing mode
# working. It reports ratios and never fails on them; it fails only if the
# sweep itself breaks (docs/conformance.md "The sweep").
echo "== sweep smoke run (timing only, never judged)"
"$python" conformance/scripts/sweep.py \
  --driver "$out/bin/conformance_driver" \
  --pytorch-lib "$torch_lib/libtorch_cpu.so" \
  --stabletorch-lib "$st_lib" \
  --yaml core/native/native_functions.yaml \
  --ops 'mul\.Tensor|exp|sum|sum\.dim_IntList|mm|cat' --sizes 1K --reps 3 --target-ms 1 --passes 2 \
  --out "$out/results/sweep_smoke"
