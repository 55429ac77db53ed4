#!/usr/bin/env bash
# README command 2: set up, build with warnings as errors, and run the whole
# test suite; then the hardening stages. CI (.ci/run) runs exactly this.
#
#   tools/test.sh [STAGE...]     default: every stage, test asan tsan fuzz conformance
#   tools/test.sh test           the Release suite alone
#
# Stages (each a CMake workflow preset with its own build dir):
#   test  build/ci    Release, -Werror: the whole suite (unit, ABI checks,
#                     soak, stress, YAML mutation fuzzing, ...)
#   asan  build/asan  the whole suite again under ASan + UBSan + LeakSanitizer
#   tsan  build/tsan  the concurrency stress test under ThreadSanitizer (20 s)
#   fuzz  build/fuzz  clang: bounded smoke run of every libFuzzer fuzzer
#   conformance  build/conformance  PyTorch 2.15's runtime (fetched from
#                     PyPI, pinned) as the oracle for ours: plugins built
#                     with both SDKs on both runtimes, generated operator
#                     cases (conformance/run.sh, docs/conformance.md)
# Each stage's wall time is printed at the end (docs/reliability.md keeps
# the figures; CI must stay under ~40 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup_debian.sh

stages=("$@")
# Without arguments (and so in CI) every stage runs: a change that passes
# the Release suite but breaks under a sanitizer or a fuzzer does not land.
[ ${#stages[@]} -eq 0 ] && stages=(test asan tsan fuzz conformance)
timings=()
for stage in "${stages[@]}"; do
  case "$stage" in
    test) preset=test ;;
    asan) preset=asan ;;
    tsan) preset=tsan-stress ;;
    fuzz) preset=fuzz ;;
    conformance) preset= ;;
    *) echo "tools/test.sh: unknown stage '$stage' (test, asan, tsan, fuzz, conformance)" >&2; exit 2 ;;
  esac
  start=$(date +%s)
  if [ -n "$preset" ]; then
    echo "==> stage $stage: cmake --workflow --preset $preset"
    cmake --workflow --preset "$preset"
  else
    echo "==> stage $stage: conformance/run.sh"
    conformance/run.sh
  fi
  timings+=("$stage $(( $(date +%s) - start )) s")
done
echo "==> stage timings:"
printf '    %s\n' "${timings[@]}"
