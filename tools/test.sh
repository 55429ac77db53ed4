#!/usr/bin/env bash
# README command 2: set up, build with warnings as errors, and run the whole
# test suite. CI (.ci/run) runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup_debian.sh
cmake --workflow --preset test
