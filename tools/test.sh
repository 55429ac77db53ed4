#!/usr/bin/env bash
# README command 2: set up, build with warnings as errors, and run the whole
# test suite; then the hardening stages. CI (.ci/run) runs exactly this.
#
#   tools/test.sh [STAGE...]     default: every stage, format test python conformance asan tsan fuzz
#   tools/test.sh test           the Release suite alone
#
# Stages (each a CMake workflow preset with its own build dir, but format):
#   format            every tracked C, C++ and CUDA source is laid out as
#                     .clang-format says (tools/format.sh --check; seconds)
#   test  build/ci    Release, -Werror: the whole suite (unit, ABI checks,
#                     soak, stress, YAML mutation fuzzing, ...)
#   python build/ci   pytest tests/python against the Release build's
#                     package (build/ci/python), NumPy as the oracle
#   asan  build/asan  the whole suite again under ASan + UBSan + LeakSanitizer
#   tsan  build/tsan  the concurrency stress test under ThreadSanitizer (20 s)
#   fuzz  build/fuzz  clang: bounded smoke run of every libFuzzer fuzzer
#   conformance  build/conformance  PyTorch 2.15's runtime (fetched from
#                     PyPI, pinned) as the oracle for ours: plugins built
#                     with both SDKs on both runtimes, generated operator
#                     cases (conformance/run.sh, docs/conformance.md)
# Each stage's wall time is printed at the end (docs/reliability.md keeps
# the figures and the build cost per part; CI must stay under 50 minutes
# on 2 cores, and the aim is 40).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup_debian.sh
# Before any configure: CMake builds the Python package when it finds
# build/venv (cmake/StableTorchPython.cmake).
tools/setup_python.sh

stages=("$@")
# Without arguments (and so in CI) every stage runs: a change that passes
# the Release suite but breaks under a sanitizer or a fuzzer does not land.
[ ${#stages[@]} -eq 0 ] && stages=(format test python conformance asan tsan fuzz)
timings=()
for stage in "${stages[@]}"; do
  case "$stage" in
    test) preset=test ;;
    asan) preset=asan ;;
    tsan) preset=tsan-stress ;;
    fuzz) preset=fuzz ;;
    format | python | conformance) preset="" ;;
    *) echo "tools/test.sh: unknown stage '$stage' (format, test, python, conformance, asan, tsan, fuzz)" >&2; exit 2 ;;
  esac
  start=$(date +%s)
  if [ "$stage" = format ]; then
    echo "==> stage format: tools/format.sh --check"
    tools/format.sh --check
  elif [ "$stage" = python ]; then
    # The package and the test plugin, in build/ci (no-ops after the test
    # stage). pytest exits non-zero on any failure and on zero tests (5).
    echo "==> stage python: pytest tests/python (build/ci/python)"
    cmake --preset ci -DSTABLETORCH_BUILD_PYTHON=ON >/dev/null
    cmake --build build/ci --target stabletorch_python python_test_sample_op python_test_future_plugin python_test_pyobject_plugin
    PYTHONPATH="$PWD/build/ci/python" build/venv/bin/python -m pytest tests/python -q -p no:cacheprovider
  elif [ "$stage" = conformance ]; then
    echo "==> stage conformance: conformance/run.sh"
    conformance/run.sh
  else
    echo "==> stage $stage: cmake --workflow --preset $preset"
    cmake --workflow --preset "$preset"
  fi
  timings+=("$stage $(( $(date +%s) - start )) s")
done
echo "==> stage timings:"
printf '    %s\n' "${timings[@]}"
