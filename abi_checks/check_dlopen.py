#!/usr/bin/env python3
"""Check 9: every installed library loads with dlopen into any process.

For every library checked:
  - its dynamic section has no STATIC_TLS flag: initial-exec TLS, of which a
    library loaded after start-up gets only the few hundred bytes glibc
    keeps spare, so it fails with "cannot allocate memory in static TLS
    block" in a Python module, under ctypes or in a late plugin host;
  - a bare host (dlopen_host.c, which links nothing of stabletorch) loads it
    with dlopen and calls one of its functions.

--install-from BUILD --prefix DIR installs the SDK into a scratch prefix and
checks every shared library under DIR/lib*; a library with no function
named in FUNCTION_TO_CALL fails until one is named. --library PATH=SYMBOL
checks one library (the self-test uses it).
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

import abi_lib

# One argument-free function returning an integer, per installed library.
FUNCTION_TO_CALL = {
    "libstabletorch.so": "stabletorch_abi_level",
    "libstabletorch_core.so": "_ZN2st17live_tensor_countEv",  # st::live_tensor_count()
    # The CUDA backend module exports nothing of its own: dlsym on its
    # handle finds the core's function through the module's dependencies.
    "libstabletorch_cuda.so": "_ZN2st17live_tensor_countEv",
}


def library_problems(path, symbol, host):
    problems = []
    if "STATIC_TLS" in abi_lib.dynamic_flags(path):
        problems.append("%s has STATIC_TLS in its dynamic section (initial-exec TLS: a "
                        "process that did not link it cannot dlopen it)" % path)
    # The host's environment must not preload or point at anything.
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "LD_LIBRARY_PATH")}
    run = subprocess.run([host, path, symbol], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True, env=env)
    if run.returncode != 0:
        problems.append("a bare process cannot dlopen %s and call %s: %s" %
                        (path, symbol, run.stdout.strip()))
    else:
        print("ok   %s: %s" % (path, run.stdout.strip()))
    return problems


def installed_libraries(build_dir, prefix):
    shutil.rmtree(prefix, ignore_errors=True)
    abi_lib.run(["cmake", "--install", build_dir, "--prefix", prefix])
    libs = sorted(p for p in glob.glob(os.path.join(prefix, "lib*", "*.so*"))
                  if os.path.isfile(p) and not os.path.islink(p))
    if not libs:
        raise abi_lib.CheckError("no shared library was installed under %s" % prefix)
    return libs


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", required=True, help="the dlopen_host executable")
    p.add_argument("--install-from", help="a built tree to install and check")
    p.add_argument("--prefix", help="scratch install prefix for --install-from (recreated)")
    p.add_argument("--library", action="append", default=[], metavar="PATH=SYMBOL")
    args = p.parse_args()

    targets = []
    for spec in args.library:
        path, _, symbol = spec.partition("=")
        targets.append((path, symbol))
    if args.install_from:
        if not args.prefix:
            raise abi_lib.CheckError("--install-from needs --prefix")
        for lib in installed_libraries(args.install_from, args.prefix):
            # libfoo.so.0.1.0 -> libfoo.so
            name = re.sub(r"\.so(\.\d+)*$", ".so", os.path.basename(lib))
            targets.append((lib, FUNCTION_TO_CALL.get(name)))
    problems = []
    for path, symbol in targets:
        if not symbol:
            problems.append("%s: no function to call is named for it in check_dlopen.py" % path)
            continue
        problems += library_problems(path, symbol, args.host)
    print("%d libraries checked" % len(targets))
    if problems:
        return abi_lib.fail(problems, "libraries that cannot be loaded with dlopen")
    return 0


if __name__ == "__main__":
    abi_lib.main_wrapper(main)
