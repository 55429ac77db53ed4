#!/usr/bin/env python3
"""The SDK headers and the compatibility plugin source of a past release,
taken from the git history of this repository.

A release's baseline directory keeps only its record (golden symbol list,
level, abidw dump) and `release_commit.txt`: the commit the release was cut
from. Check 5 rebuilds that release's compatibility plugin, unchanged,
against exactly the headers it shipped; this script writes them into a
build-tree folder:

  DEST/include/...            headeronly/include + c_api/include + stable/include
                              of the release commit, with the generated
                              stabletorch/version.h configured for VERSION
  DEST/compat_plugin.cpp      abi_checks/compat_plugin/compat_plugin.cpp of it

A stamp naming the commit makes later runs a no-op. The history must be in
the clone (a shallow clone lacks it): the script then fails and says how to
fetch it, so check 5 never passes by skipping a release.
"""

import argparse
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abi_lib  # noqa: E402

HEADER_TREES = ("headeronly/include", "c_api/include", "stable/include")
PLUGIN_SOURCE = "abi_checks/compat_plugin/compat_plugin.cpp"
VERSION_TEMPLATE = "stabletorch/version.h.in"


def read_commit(path):
    """The first non-comment line of release_commit.txt: a full commit hash."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                if not re.fullmatch(r"[0-9a-f]{40}", line):
                    raise ValueError("%s: expected a 40-digit commit hash, got %r" % (path, line))
                return line
    raise ValueError("%s names no commit" % path)


def git(repo, *args, binary=False):
    proc = subprocess.run(["git", "-C", repo] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise RuntimeError("git %s: %s" % (" ".join(args), proc.stderr.decode(errors="replace").strip()))
    return proc.stdout if binary else proc.stdout.decode()


def configure_version_header(template, version):
    """What CMake's configure_file makes of stabletorch/version.h.in."""
    major, minor, patch = version.split(".")
    for key, value in (("@PROJECT_VERSION_MAJOR@", major), ("@PROJECT_VERSION_MINOR@", minor),
                       ("@PROJECT_VERSION_PATCH@", patch), ("@PROJECT_VERSION@", version)):
        template = template.replace(key, value)
    if "@" in re.sub(r"//.*", "", template):
        raise ValueError("version.h.in has a placeholder this script does not know")
    return template


def extract(repo, commit, version, dest):
    stamp = os.path.join(dest, ".commit")
    if os.path.isfile(stamp) and open(stamp, encoding="utf-8").read().strip() == commit:
        return
    try:
        git(repo, "cat-file", "-e", commit + "^{commit}")
    except RuntimeError:
        raise RuntimeError(
            "commit %s of release %s is not in this clone (a shallow clone lacks the history "
            "check 5 needs): run `git fetch --unshallow`, or clone without --depth" % (commit, version))
    archive = git(repo, "archive", "--format=tar", commit, "--", *HEADER_TREES, PLUGIN_SOURCE,
                  binary=True)
    shutil.rmtree(dest, ignore_errors=True)
    include = os.path.join(dest, "include")
    os.makedirs(include)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            if member.name == PLUGIN_SOURCE:
                target = os.path.join(dest, "compat_plugin.cpp")
            else:
                tree = next(t for t in HEADER_TREES if member.name.startswith(t + "/"))
                relative = member.name[len(tree) + 1:]
                if relative == VERSION_TEMPLATE:
                    text = tar.extractfile(member).read().decode()
                    target = os.path.join(include, "stabletorch", "version.h")
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    with open(target, "w", encoding="utf-8") as out:
                        out.write(configure_version_header(text, version))
                    continue
                target = os.path.join(include, relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as out:
                out.write(tar.extractfile(member).read())
    for required in (os.path.join(include, "torch/csrc/inductor/aoti_torch/c/shim.h"),
                     os.path.join(dest, "compat_plugin.cpp")):
        if not os.path.isfile(required):
            raise RuntimeError("release %s (commit %s) has no %s" % (version, commit, required))
    with open(stamp, "w", encoding="utf-8") as f:
        f.write(commit + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repo", required=True, help="the repository root")
    p.add_argument("--baseline", required=True, help="abi_checks/baselines/<version>")
    p.add_argument("--dest", required=True, help="build-tree folder to write")
    args = p.parse_args()
    version = os.path.basename(os.path.normpath(args.baseline))
    try:
        abi_lib.parse_version_triple(version)
        commit = read_commit(os.path.join(args.baseline, "release_commit.txt"))
        extract(args.repo, commit, version, args.dest)
    except (OSError, ValueError, RuntimeError, abi_lib.CheckError) as e:
        return abi_lib.fail([str(e)], "sources of release %s" % version)
    print("release %s: headers and compatibility plugin of commit %s in %s"
          % (version, commit[:12], args.dest))
    return 0


if __name__ == "__main__":
    sys.exit(main())
