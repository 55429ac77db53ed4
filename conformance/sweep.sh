#!/usr/bin/env bash
# The per-operator sweep against PyTorch 2.15 (docs/conformance.md "The
# sweep", docs/performance.md): builds what the conformance stage builds,
# then times every operator both runtimes register in both, interleaved.
# A benchmark: it fails only when the sweep itself breaks.
#
#   conformance/sweep.sh [sweep.py options]     e.g. --ops 'exp|div\.Tensor' --sizes 1K
#
# Time it with a Release build of libstabletorch (the ci and conformance
# presets are; CONFORMANCE_STABLETORCH_BUILD picks the tree as for run.sh).
# Tables: build/conformance/sweep/sweep.md and sweep.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
source conformance/prepare.sh

echo "== sweep (stabletorch / PyTorch time per operator and size)"
"$python" conformance/scripts/sweep.py \
  --driver "$out/bin/conformance_driver" \
  --pytorch-lib "$torch_lib/libtorch_cpu.so" \
  --stabletorch-lib "$st_lib" \
  --yaml core/native/native_functions.yaml \
  --out "$out/sweep" "$@"
