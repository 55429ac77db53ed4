#!/usr/bin/env bash
# README command 1 (the main job): set up, build, and run the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup_debian.sh
cmake --workflow --preset demo
./build/release/tools/dtype_table/stabletorch-dtypes
