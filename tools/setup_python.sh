#!/usr/bin/env bash
# Makes the build-local Python environment the Python package builds and
# tests with: build/venv (Debian's python3 with its dev headers), with
# nanobind, scikit-build-core, NumPy, pytest and PyYAML (the codegen tests)
# from PyPI. Idempotent and quiet when everything is present. CMake finds
# build/venv by itself (cmake/StableTorchPython.cmake).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=build/venv
requirements=(nanobind==3.1.0 scikit-build-core numpy pytest pyyaml)

if [ ! -x "$venv/bin/python" ]; then
  echo "stabletorch setup: creating $venv"
  /usr/bin/python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import nanobind, numpy, pytest, scikit_build_core, yaml" 2>/dev/null; then
  echo "stabletorch setup: installing into $venv: ${requirements[*]}"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
fi
