#!/usr/bin/env bash
# The `stabletorch` tool on good and bad plugin files: exit codes as
# documented (0 ok, 1 failed, 2 usage, 3 cannot run here) and messages that
# name the file. Arguments: TOOL GOOD_PLUGIN FUTURE_PLUGIN WORKDIR
# MISSING_IMPORTS_PLUGIN (imports functions no core exports, no descriptor)
set -uo pipefail
tool=$1 good=$2 future=$3 work=$4 missing=$5
mkdir -p "$work"
failures=0

# expect CODE NEEDLE -- ARGS...: runs the tool, checks exit code and output.
expect() {
  local code=$1 needle=$2
  shift 3
  local out rc
  out=$("$tool" "$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$code" ] || ! grep -qF -- "$needle" <<<"$out"; then
    echo "FAIL: stabletorch $* -> exit $rc (want $code), output lacks '$needle':"
    echo "$out" | head -20
    failures=$((failures + 1))
  else
    echo "ok: stabletorch $* -> $rc"
  fi
}

printf 'this is not a shared object\n' > "$work/garbage.so"
head -c 200 "$good" > "$work/truncated.so"
head -c 4096 "$good" > "$work/truncated_4k.so"
: > "$work/empty.so"
rm -rf "$work/fifo.so" "$work/dir.so"
mkfifo "$work/fifo.so"
mkdir "$work/dir.so"

expect 0 "usage: stabletorch" -- --help
expect 0 "usage: stabletorch inspect" -- inspect --help
expect 2 "usage" -- frobnicate
expect 2 "usage" -- inspect
expect 1 "$work/missing.so" -- inspect "$work/missing.so"
expect 1 "$work/garbage.so" -- inspect "$work/garbage.so"
expect 1 "$work/empty.so" -- inspect "$work/empty.so"
expect 1 "$work/truncated.so" -- inspect "$work/truncated.so"
expect 1 "$work/truncated_4k.so" -- inspect "$work/truncated_4k.so"
# Never read (a device never ends, a FIFO without a writer never begins).
expect 1 "'/dev/zero' is a character device" -- inspect /dev/zero
expect 1 "'/dev/urandom' is a character device" -- inspect /dev/urandom
expect 1 "'$work/fifo.so' is a FIFO (named pipe)" -- inspect "$work/fifo.so"
expect 1 "'$work/dir.so' is a directory" -- inspect "$work/dir.so"
expect 1 "'/dev/zero' is a character device" -- run /dev/zero sdk_test::echo_int 1
expect 1 "$work/garbage.so" -- run "$work/garbage.so" sdk_test::echo_int 1
expect 3 "$future" -- inspect "$future"
expect 0 "sdk_test::echo_int" -- inspect "$good"
expect 0 "torch_call_dispatcher" -- inspect "$good"
expect 3 "aoti_torch_proxy_executor_call_function  [MISSING from this core: stable-ABI level 2.9]" \
  -- inspect "$missing"
expect 3 "built with: PyTorch's headers or the C ABI alone" -- inspect "$missing"
expect 0 "sdk_test::echo_int" -- ops --load "$good" --namespace sdk_test
# The tags and Python module a def gave (StableLibrary::def(schema, tags),
# set_python_module).
expect 0 "$(printf 'sdk_test::tagged(Tensor x) -> Tensor\n    kernels: (no kernel)\n    tags: pointwise, pt2_compliant_tag')" \
  -- ops --load "$good" --namespace sdk_test
expect 0 "    python module: sdk_test_py.fake (sdk_test's fake kernels)" \
  -- ops --load "$good" --namespace sdk_test
expect 0 "-5" -- run "$good" sdk_test::echo_int 5
expect 1 "x must be positive" -- run "$good" sdk_test::thrower -2

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
