#!/usr/bin/env python3
"""PyTorch-built plugins of every release with the stable ABI run here.

For each PyTorch release given (default: every release before the one the
conformance stage uses, 2.9 ... 2.14), fetches only the headers of its
wheel (pytorch_release_headers.py: HTTP Range requests, each header checked
against the wheel's RECORD, cached in the build tree), builds the
compatibility plugin (abi_checks/compat_plugin/compat_plugin.cpp) with
those headers alone, at the release's own level and linked to no runtime,
as a PyTorch extension is built, and runs it on the current stabletorch
with the compatibility host twice: loaded with plain dlopen, and through
stabletorch_load_library (which judges it by its imports, having no
descriptor). Prints one line per release and exits 1 if any failed.

  check_pytorch_releases.py --host build/dev/abi_checks/abi_compat_host \\
      --cache build/dev/abi_checks/pytorch_releases [--version 2.9.0 ...]

CI runs the oldest and the newest (conformance/run.sh); run the whole
series on demand. --full-download fetches whole wheels where Range
requests do not work (about 1 GB each).
"""
import argparse
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pytorch_release_headers  # noqa: E402

RELEASES = ["2.9.0", "2.10.0", "2.11.0", "2.12.0", "2.13.0", "2.14.0"]


def build_plugin(cxx, include, out):
    cmd = [cxx, "-std=c++17", "-O1", "-shared", "-fPIC", "-fvisibility=hidden",
           "-fvisibility-inlines-hidden", "-Wall", "-Wextra", "-Werror",
           "-isystem", include, os.path.join(HERE, "compat_plugin", "compat_plugin.cpp"),
           "-o", out]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    return proc.returncode == 0, " ".join(cmd) + "\n" + proc.stdout


def run_host(host, plugin, loader):
    cmd = [host] + (["--loader"] if loader else []) + [plugin]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=300)
    return proc.returncode == 0, " ".join(cmd) + "\n" + proc.stdout


def core_level(log):
    """(major, minor) of the core from the host's "core level 2.10.0" line."""
    m = re.search(r"core level (\d+)\.(\d+)", log)
    return (int(m.group(1)), int(m.group(2))) if m else None


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", required=True, help="abi_compat_host of the build to test")
    p.add_argument("--cache", required=True, help="header cache folder in the build tree")
    p.add_argument("--version", action="append", help="release (repeatable; default: all)")
    p.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    p.add_argument("--full-download", action="store_true")
    args = p.parse_args()

    versions = args.version or RELEASES
    os.makedirs(args.cache, exist_ok=True)
    failed = []
    unclaimed = []
    for v in versions:
        try:
            root = pytorch_release_headers.fetch(v, args.cache, args.full_download)
        except pytorch_release_headers.FetchError as e:
            print("torch %-7s FETCH FAILED: %s" % (v, e))
            if "ignored the Range request" in str(e):
                print("  (Range requests do not work here: pass --full-download)")
            failed.append(v)
            continue
        plugin = os.path.join(args.cache, "libabi_compat_pytorch_%s.so" % v.replace(".", "_"))
        ok, log = build_plugin(args.cxx, os.path.join(root, "torch", "include"), plugin)
        if not ok:
            print("torch %-7s BUILD FAILED:\n%s" % (v, log))
            failed.append(v)
            continue
        results, logs = [], []
        for loader in (False, True):
            ok, log = run_host(args.host, plugin, loader)
            results.append(ok)
            logs.append(log)
        how = ", ".join("%s %s" % (name, "ok" if r else "FAILED")
                        for name, r in zip(("dlopen", "loader"), results))
        # A plugin built with a release's headers targets that release's
        # level; a core claiming a lower one is not expected to serve it.
        core = core_level(logs[0])
        release = tuple(int(x) for x in v.split(".")[:2])
        if not all(results) and core is not None and release > core:
            print("torch %-7s compat plugin built with its headers: %s; NOT CLAIMED: it targets "
                  "%d.%d, this core claims %d.%d" % (v, how, release[0], release[1], *core))
            unclaimed.append(v)
            continue
        for ok, log in zip(results, logs):
            if not ok:
                print(log)
        print("torch %-7s compat plugin built with its headers: %s" % (v, how))
        if not all(results):
            failed.append(v)
    print("%d of %d PyTorch releases' plugins run on this stabletorch%s%s" % (
        len(versions) - len(failed) - len(unclaimed), len(versions),
        "" if not unclaimed else "; levels this core does not claim yet: " + ", ".join(unclaimed),
        "" if not failed else "; FAILED: " + ", ".join(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
