#!/usr/bin/env python3
"""Self-tests of the ABI checkers: each case builds scratch binaries in a
temporary directory, breaks the rule its checker guards (removes or renames
a symbol, changes a parameter, a return type, a struct layout or an enum
value, renumbers a code, links the core, imports a C++ symbol or a newer
function, ...) and asserts that the checker fails with a message naming
what broke; an unbroken control must pass.

  run_selftest.py [--cc cc] [--cxx c++] [-I dir ...] CASE

CASE: exported_symbols, abi_diff, c_headers, code_pins, needed, imports,
release_headers, compile_probe, policy_doc. -I directories (the real public headers) are
needed by code_pins only.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKS = os.path.dirname(HERE)
PY = sys.executable


class SelfTestFailure(Exception):
    pass


class Ctx:
    def __init__(self, args, work):
        self.cc = args.cc
        self.cxx = args.cxx
        self.includes = [os.path.abspath(d) for d in args.include_dir]
        self.work = work
        self.count = 0

    def path(self, *parts):
        return os.path.join(self.work, *parts)

    def write(self, name, text):
        full = self.path(name)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)
        return full

    def sh(self, cmd):
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, cwd=self.work)
        if proc.returncode != 0:
            raise SelfTestFailure("scratch build step failed: %s\n%s" % (" ".join(cmd), proc.stdout))
        return proc.stdout

    def shared(self, out, sources, flags=(), libs=(), lang="c"):
        compiler = self.cc if lang == "c" else self.cxx
        cmd = [compiler, "-shared", "-fPIC", "-fvisibility=hidden", "-g", "-O1",
               "-o", self.path(out)] + list(flags) + [self.path(s) for s in sources] + \
              ["-L" + self.work, "-Wl,-rpath," + self.work] + list(libs)
        self.sh(cmd)
        return self.path(out)

    def expect(self, label, checker, args, ok, patterns=()):
        """Runs a checker; ok=True: must exit 0; ok=False: must exit 1 and
        print every regex in patterns."""
        cmd = [PY, os.path.join(CHECKS, checker)] + list(args)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)
        out = proc.stdout
        self.count += 1
        if ok and proc.returncode != 0:
            raise SelfTestFailure("[%s] expected %s to pass, it failed (%d):\n%s"
                                  % (label, checker, proc.returncode, out))
        if not ok:
            if proc.returncode != 1:
                raise SelfTestFailure("[%s] expected %s to fail with status 1, got %d:\n%s"
                                      % (label, checker, proc.returncode, out))
            for pattern in patterns:
                if not re.search(pattern, out):
                    raise SelfTestFailure("[%s] %s failed, but its report does not match %r:\n%s"
                                          % (label, checker, pattern, out))
        print("ok - %s: %s %s" % (label, checker, "passes" if ok else "fails as it must"))
        return out


# ---- check 1 ---------------------------------------------------------------

def case_exported_symbols(c):
    c.write("api.c", """
#define E __attribute__((__visibility__("default")))
E int aoti_torch_alpha(void) { return 1; }
#ifndef DROP_BETA
E int aoti_torch_beta(void) { return 2; }
#endif
E int torch_gamma(void) { return 3; }
#ifdef ADD_DELTA
E int torch_delta(void) { return 4; }
#endif
#ifdef LEAK_HELPER
E int helper_not_c_abi(void) { return 5; }
#endif
""")
    base = c.shared("libbase.so", ["api.c"])
    grown = c.shared("libgrown.so", ["api.c"], ["-DADD_DELTA"])
    dropped = c.shared("libdropped.so", ["api.c"], ["-DDROP_BETA"])
    leaky = c.shared("libleaky.so", ["api.c"], ["-DLEAK_HELPER"])
    versions = c.write("versions.txt", "aoti_torch_alpha: TORCH_VERSION_2_9_0\n"
                       "aoti_torch_beta: TORCH_VERSION_2_9_0\ntorch_gamma: TORCH_VERSION_2_10_0\n")
    versions_grown = c.write("versions_grown.txt", open(versions).read() +
                             "torch_delta: TORCH_VERSION_2_11_0\n")
    c.write("baselines/0.1.0/exported_symbols.txt", open(versions).read())
    c.write("baselines/0.1.0/abi_level.txt", "2.10.0\n")
    bl = c.path("baselines")
    run = lambda lib, ver: ["--library", lib, "--versions", ver, "--baselines", bl]

    c.expect("control", "check_exported_symbols.py", run(base, versions), True)
    c.expect("pure addition", "check_exported_symbols.py", run(grown, versions_grown), True)
    c.expect("headers lower the claimed level", "check_exported_symbols.py",
             run(base, versions) + ["--current-level", "2.9"], False,
             [r"the headers claim level 2\.9\.0 \(TORCH_ABI_VERSION\) but release 0\.1\.0 claimed 2\.10\.0"])
    c.expect("symbol removed", "check_exported_symbols.py", run(dropped, versions), False,
             [r"removed since 0\.1\.0: aoti_torch_beta",
              r"listed in versions\.txt \(TORCH_VERSION_2_9_0\) but not exported: aoti_torch_beta"])
    c.expect("export missing from versions file", "check_exported_symbols.py",
             run(grown, versions), False, [r"exported but missing from versions\.txt: torch_delta"])
    c.expect("non-C-ABI export", "check_exported_symbols.py", run(leaky, versions), False,
             [r"outside the C ABI.*: helper_not_c_abi"])
    # Renaming = removing the old name and adding a new one.
    c.write("api_renamed.c", open(c.path("api.c")).read().replace("aoti_torch_alpha", "aoti_torch_alpha_v2"))
    renamed = c.shared("librenamed.so", ["api_renamed.c"])
    versions_renamed = c.write("versions_renamed.txt",
                               open(versions).read().replace("aoti_torch_alpha", "aoti_torch_alpha_v2"))
    c.expect("symbol renamed", "check_exported_symbols.py", run(renamed, versions_renamed), False,
             [r"removed since 0\.1\.0: aoti_torch_alpha \("])
    moved = c.write("versions_moved.txt", open(versions).read().replace(
        "torch_gamma: TORCH_VERSION_2_10_0", "torch_gamma: TORCH_VERSION_2_11_0"))
    c.expect("level rewritten", "check_exported_symbols.py", run(base, moved), False,
             [r"level of torch_gamma changed since 0\.1\.0: TORCH_VERSION_2_10_0 -> TORCH_VERSION_2_11_0"])
    # A later release whose golden list shrank.
    c.write("baselines/0.2.0/exported_symbols.txt",
            "aoti_torch_alpha: TORCH_VERSION_2_9_0\ntorch_gamma: TORCH_VERSION_2_10_0\n")
    c.write("baselines/0.2.0/abi_level.txt", "2.9.0\n")
    c.expect("golden shrank between releases", "check_exported_symbols.py", run(base, versions), False,
             [r"golden list of 0\.2\.0 dropped aoti_torch_beta",
              r"abi_level of 0\.2\.0 \(2\.9\.0\) is lower than that of 0\.1\.0"])


# ---- check 2 ---------------------------------------------------------------

ABI_HEADER = """#include <stdint.h>
#define E __attribute__((__visibility__("default")))
#ifdef PARAM
typedef int64_t scratch_arg_t;
#else
typedef int32_t scratch_arg_t;
#endif
#ifdef RET
typedef int64_t scratch_ret_t;
#else
typedef int32_t scratch_ret_t;
#endif
typedef struct ScratchPoint {
  int32_t x;
#ifdef LAYOUT
  int32_t z;
#endif
  int32_t y;
} ScratchPoint;
typedef enum ScratchColor {
  SCRATCH_RED = 0,
#ifdef ENUMV
  SCRATCH_GREEN = 2
#else
  SCRATCH_GREEN = 1
#endif
} ScratchColor;
struct ScratchOpaque;
typedef struct ScratchOpaque* ScratchHandle;
E int32_t scratch_add(int32_t a, scratch_arg_t b);
E scratch_ret_t scratch_ret(void);
E int32_t scratch_len(const ScratchPoint* p);
E int32_t scratch_color(ScratchColor c);
E int32_t scratch_handle(ScratchHandle h);
#ifndef REMOVED
E int32_t scratch_gone(void);
#endif
#ifdef ADDED
E int32_t scratch_new(int32_t a);
#endif
"""

ABI_SOURCE = """#include "scratch_api.h"
#ifdef PRIVATE_CHANGE
struct ScratchOpaque { int32_t added; int64_t private_field; };
#else
struct ScratchOpaque { int64_t private_field; };
#endif
int32_t scratch_add(int32_t a, scratch_arg_t b) { return a + (int32_t)b; }
scratch_ret_t scratch_ret(void) { return 7; }
int32_t scratch_len(const ScratchPoint* p) { return p->x + p->y; }
int32_t scratch_color(ScratchColor c) { return (int32_t)c; }
int32_t scratch_handle(ScratchHandle h) { return h ? (int32_t)h->private_field : 0; }
#ifndef REMOVED
int32_t scratch_gone(void) { return 1; }
#endif
#ifdef ADDED
int32_t scratch_new(int32_t a) { return a; }
#endif
"""


def case_abi_diff(c):
    c.write("include/scratch_api.h", ABI_HEADER)
    c.write("scratch_api.c", ABI_SOURCE)
    inc = ["-I" + c.path("include"), "-Wl,-soname,libscratch.so.0"]
    base = c.shared("libscratch_base.so", ["scratch_api.c"], inc)
    baseline = c.path("scratch.abi")
    c.expect("dump baseline", "check_abi_diff.py",
             ["--library", base, "--headers-dir", c.path("include"), "--dump", baseline], True)
    hdr = ["--headers-dir", c.path("include"), "--baseline", baseline]
    c.expect("unchanged", "check_abi_diff.py", ["--library", base] + hdr, True)
    added = c.shared("libscratch_added.so", ["scratch_api.c"], inc + ["-DADDED"])
    c.expect("pure addition", "check_abi_diff.py", ["--library", added] + hdr, True)
    private = c.shared("libscratch_private.so", ["scratch_api.c"], inc + ["-DPRIVATE_CHANGE"])
    c.expect("layout change of an opaque (private) type", "check_abi_diff.py",
             ["--library", private] + hdr, True)
    cases = [
        ("REMOVED", "function removed", [r"INCOMPATIBLE", r"1 Removed function", r"scratch_gone"]),
        ("PARAM", "parameter type changed", [r"scratch_add", r"parameter 2 of type", r"int64_t"]),
        ("RET", "return type changed", [r"scratch_ret", r"return type changed"]),
        ("LAYOUT", "struct layout changed", [r"scratch_len", r"struct ScratchPoint",
                                            r"type size changed from 64 to 96"]),
        ("ENUMV", "enum value changed", [r"scratch_color", r"SCRATCH_GREEN.*from value '1' to '2'"]),
    ]
    for macro, label, patterns in cases:
        lib = c.shared("libscratch_%s.so" % macro.lower(), ["scratch_api.c"], inc + ["-D" + macro])
        c.expect(label, "check_abi_diff.py", ["--library", lib] + hdr, False, patterns)
    nodebug = c.path("libscratch_nodebug.so")
    c.sh([c.cc, "-shared", "-fPIC", "-O1", "-I" + c.path("include"), "-o", nodebug,
          c.path("scratch_api.c")])
    proc = subprocess.run([PY, os.path.join(CHECKS, "check_abi_diff.py"), "--library", nodebug] + hdr,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if proc.returncode == 0 or "carries no DWARF" not in proc.stdout:
        raise SelfTestFailure("[no DWARF] expected a clear error, got (%d):\n%s"
                              % (proc.returncode, proc.stdout))
    print("ok - library without DWARF: check_abi_diff.py refuses with a clear error")


# ---- check 3 ---------------------------------------------------------------

def case_c_headers(c):
    # The generated TUs go into the scratch dir (a failing run keeps its own).
    c_headers_args = ["--cc", c.cc, "--header-root", c.path("inc"), "--work-dir", c.path("tus")]
    c.write("inc/good/plain.h", "#ifndef PLAIN_H\n#define PLAIN_H\n#include <stdint.h>\n"
            "typedef struct Plain { int32_t a; } Plain;\nint plain_get(const Plain* p);\n#endif\n")
    c.expect("control", "check_c_headers.py", c_headers_args, True)
    c.write("inc/bad/cxx_ref.h", "#ifndef CXX_REF_H\n#define CXX_REF_H\n"
            "typedef struct S { int a; } S;\nint takes_ref(S& s);\n#endif\n")
    c.expect("C++ reference in a C header", "check_c_headers.py",
             c_headers_args, False,
             [r"bad/cxx_ref\.h is not valid C11", r"1 of 2 public C headers"])
    os.remove(c.path("inc/bad/cxx_ref.h"))
    c.write("inc/bad/unguarded.h", "typedef struct Twice { int a; } Twice2;\nstruct Twice2x { int b; };\n"
            "struct Again { int c; };\n")
    c.expect("header without include guard", "check_c_headers.py",
             c_headers_args, False,
             [r"bad/unguarded\.h is not valid C11", r"redefinition"])
    os.remove(c.path("inc/bad/unguarded.h"))
    c.write("inc/bad/pedantic.h", "#ifndef PEDANTIC_H\n#define PEDANTIC_H\n"
            "struct Empty {};\n#endif\n")
    c.expect("non-pedantic C", "check_c_headers.py",
             c_headers_args, False,
             [r"bad/pedantic\.h is not valid C11"])


def case_code_pins(c):
    if not c.includes:
        raise SelfTestFailure("code_pins needs -I <public include dirs>")
    pins = os.path.join(CHECKS, "c_abi_pins.c")
    fake = os.path.join(HERE, "fake_constants.c")
    incs = ["-I" + d for d in c.includes]
    flags = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"]
    # Link lazily against the fake: c_abi_pins.c references only getters.
    for variant, define in [("good", None), ("float32", "-DFLIP_FLOAT32"),
                            ("channels_last", "-DFLIP_CHANNELS_LAST")]:
        lib = "libfake_%s.so" % variant
        c.sh([c.cc, "-shared", "-fPIC", "-fvisibility=hidden", "-o", c.path(lib), fake] +
             ([define] if define else []))
        exe = c.path("pins_%s" % variant)
        c.sh([c.cc] + flags + incs + ["-o", exe, pins, c.path(lib), "-Wl,-rpath," + c.work])
        proc = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)
        c.count += 1
        if variant == "good":
            if proc.returncode != 0:
                raise SelfTestFailure("[control] c_abi_pins failed on correct codes:\n" + proc.stdout)
            print("ok - control: c_abi_pins passes on c10's codes")
            continue
        want = {"float32": r"aoti_torch_dtype_float32\(\) returned 7, expected 6 \(c10 ScalarType::Float\)",
                "channels_last": r"aoti_torch_memory_format_channels_last\(\) returned 3, expected 2"}[variant]
        if proc.returncode != 1 or not re.search(want, proc.stdout):
            raise SelfTestFailure("[%s renumbered] c_abi_pins did not name it (%d):\n%s"
                                  % (variant, proc.returncode, proc.stdout))
        print("ok - %s renumbered: c_abi_pins fails naming the getter" % variant)
    # A compile-time pin: a handle typedef that stops being a pointer.
    c.write("pinned.h", "#include <stdint.h>\ntypedef struct { uint32_t id; } AtenTensorHandle;\n"
            "_Static_assert(sizeof(AtenTensorHandle) == sizeof(void*), "
            "\"AtenTensorHandle must stay one pointer\");\n")
    proc = subprocess.run([c.cc] + flags + ["-fsyntax-only", "-x", "c", c.path("pinned.h")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if proc.returncode == 0 or "must stay one pointer" not in proc.stdout:
        raise SelfTestFailure("[handle size] _Static_assert did not fire:\n" + proc.stdout)
    print("ok - handle size changed: the _Static_assert pin fires")


# ---- check 4 ---------------------------------------------------------------

def case_needed(c):
    c.write("core.c", "__attribute__((__visibility__(\"default\"))) int core_fn(void) { return 1; }\n")
    c.write("capi.c", "__attribute__((__visibility__(\"default\"))) int aoti_torch_fn(void) { return 2; }\n")
    c.shared("libstabletorch_core.so", ["core.c"])
    c.shared("libstabletorch.so", ["capi.c"])
    c.write("main_none.c", "int main(void) { return 0; }\n")
    c.write("main_capi.c", "int aoti_torch_fn(void);\nint main(void) { return aoti_torch_fn() - 2; }\n")
    c.write("plugin_ok.c", "int aoti_torch_fn(void);\n__attribute__((__visibility__(\"default\"))) "
            "int plug(void) { return aoti_torch_fn(); }\n")
    c.write("plugin_core.c", "int aoti_torch_fn(void);\nint core_fn(void);\n"
            "__attribute__((__visibility__(\"default\"))) int plug(void) { return aoti_torch_fn() + core_fn(); }\n")
    none = c.path("exe_none")
    c.sh([c.cc, "-o", none, c.path("main_none.c")])
    capi = c.path("exe_capi")
    c.sh([c.cc, "-o", capi, c.path("main_capi.c"), "-L" + c.work, "-lstabletorch",
          "-Wl,-rpath," + c.work, "-Wl,--no-as-needed"])
    ok_plugin = c.shared("libplugin_ok.so", ["plugin_ok.c"], libs=["-Wl,--no-as-needed", "-lstabletorch"])
    core_plugin = c.shared("libplugin_core.so", ["plugin_core.c"],
                           libs=["-Wl,--no-as-needed", "-lstabletorch", "-lstabletorch_core"])
    c.expect("header-only control", "check_needed.py", ["--binary", none, "--forbid", "stabletorch"], True)
    c.expect("header-only target links the C ABI", "check_needed.py",
             ["--binary", capi, "--forbid", "stabletorch"], False,
             [r"exe_capi NEEDs libstabletorch\.so, which matches forbidden pattern"])
    plugin_rule = ["--allow", r"^libstabletorch\.so", "--require", r"^libstabletorch\.so",
                   "--forbid", "stabletorch_core"]
    c.expect("plugin control", "check_needed.py", ["--binary", ok_plugin] + plugin_rule, True)
    c.expect("plugin links the core", "check_needed.py", ["--binary", core_plugin] + plugin_rule, False,
             [r"libplugin_core\.so NEEDs libstabletorch_core\.so"])
    c.expect("plugin links nothing", "check_needed.py", ["--binary", c.shared(
        "libplugin_empty.so", ["core.c"])] + plugin_rule, False, [r"NEEDs nothing matching"])


# ---- check 9 ---------------------------------------------------------------

def case_dlopen(c):
    host = c.path("dlopen_host")
    c.sh([c.cc, "-o", host, os.path.join(CHECKS, "dlopen_host.c"), "-ldl"])
    # Dynamic-model TLS: loads anywhere.
    c.write("good.c", "__attribute__((__visibility__(\"default\"))) __thread char good_buf[65536];\n"
            "__attribute__((__visibility__(\"default\"))) long long good_fn(void) "
            "{ return ++good_buf[7]; }\n")
    # 64 KiB of initial-exec TLS: more than glibc keeps for late loads.
    c.write("bad.c", "__attribute__((__visibility__(\"default\"))) __thread char bad_buf[65536]\n"
            "    __attribute__((tls_model(\"initial-exec\")));\n"
            "__attribute__((__visibility__(\"default\"))) long long bad_fn(void) "
            "{ return ++bad_buf[7]; }\n")
    good = c.shared("libgood_tls.so", ["good.c"])
    bad = c.shared("libbad_tls.so", ["bad.c"])
    c.expect("dynamic TLS control", "check_dlopen.py",
             ["--host", host, "--library", good + "=good_fn"], True)
    c.expect("initial-exec TLS", "check_dlopen.py",
             ["--host", host, "--library", bad + "=bad_fn"], False,
             [r"libbad_tls\.so has STATIC_TLS", r"cannot dlopen .*libbad_tls\.so and call bad_fn"])
    c.expect("missing function", "check_dlopen.py",
             ["--host", host, "--library", good + "=no_such_fn"], False,
             [r"cannot dlopen .*libgood_tls\.so and call no_such_fn.*undefined symbol"])


# ---- check 10 --------------------------------------------------------------

def case_declarations(c):
    theirs = "torch/csrc/inductor/aoti_torch/c/shim.h"
    others = ["torch/csrc/inductor/aoti_torch/c/shim_deprecated.h",
              "torch/csrc/inductor/aoti_torch/c/shim_cpu.h",
              "torch/csrc/inductor/aoti_torch/c/shim_mps.h",
              "torch/csrc/inductor/aoti_torch/c/shim_xpu.h",
              "torch/csrc/inductor/aoti_torch/generated/c_shim_aten.h",
              "torch/csrc/stable/c/shim.h"]
    for h in others:
        c.write("pt/" + h, "/* empty */\n")
    c.write("pt/" + theirs, """#ifndef AOTI_TORCH_SHIM
#define AOTI_TORCH_SHIM
AOTI_TORCH_EXPORT int32_t aoti_torch_same(void);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_typed(AtenTensorHandle t, int64_t* ret);
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0
AOTI_TORCH_EXPORT AOTITorchError torch_newer(
    const char* name,
    void (*fn)(StableIValue*, uint64_t, uint64_t));
AOTI_TORCH_EXPORT AOTITorchError torch_reviewed(void);
#endif
#endif
""")
    c.write("ours_good/shim.h", """AOTI_TORCH_EXPORT int32_t aoti_torch_same();
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_typed(AtenTensorHandle tensor, int64_t *out);
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0
AOTI_TORCH_EXPORT AOTITorchError torch_newer(const char* n, void (*f)(StableIValue*, uint64_t, uint64_t));
#endif
""")
    c.write("ours_bad/shim.h", """AOTI_TORCH_EXPORT int32_t aoti_torch_same();
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_typed(AtenTensorHandle tensor, int32_t* out);
AOTI_TORCH_EXPORT AOTITorchError torch_newer(const char* n, void (*f)(StableIValue*, uint64_t, uint64_t));
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_extra(void);
""")
    c.write("reviewed.txt", "torch_reviewed  # not implemented yet\n")
    c.write("stale.txt", "torch_reviewed  # not implemented yet\nno_such_fn  # gone\n")
    pt = ["--pytorch-include", c.path("pt")]
    c.expect("same declarations", "check_declarations.py",
             pt + ["--ours", c.path("ours_good"), "--reviewed", c.path("reviewed.txt")], True)
    c.expect("unreviewed gap", "check_declarations.py",
             pt + ["--ours", c.path("ours_good")], False,
             [r"DIFFERS   torch_reviewed: missing"])
    c.expect("every kind of difference", "check_declarations.py",
             pt + ["--ours", c.path("ours_bad"), "--reviewed", c.path("reviewed.txt")], False,
             [r"aoti_torch_typed: signature differs: PyTorch AOTITorchError "
              r"aoti_torch_typed\(AtenTensorHandle, int64_t\*\); ours .*int32_t\*",
              r"torch_newer: level differs: PyTorch 2.12, ours 2.9",
              r"aoti_torch_extra: ours only"])
    c.expect("stale reviewed entry", "check_declarations.py",
             pt + ["--ours", c.path("ours_good"), "--reviewed", c.path("stale.txt")], False,
             [r"STALE reviewed entry 'no_such_fn'"])


def case_cxx_declarations(c):
    import shutil as _shutil
    clang = _shutil.which("clang++")
    if not clang:
        print("cxx_declarations: no clang++, nothing to test")
        return
    version_h = """#pragma once
#define TORCH_VERSION_MAJOR 2
#define TORCH_VERSION_MINOR %d
#define TORCH_VERSION_2_12_0 ((2ULL << 56) | (12ULL << 48))
#define TORCH_FEATURE_VERSION TORCH_TARGET_VERSION
"""
    c.write("pt/torch/headeronly/version.h", version_h % 15)
    c.write("pt/torch/headeronly/util/extra.h", "#pragma once\n#define PT_ONLY_MACRO 1\n")
    c.write("pt/torch/csrc/stable/c/shim.h", "/* C: not compared here */\n")
    c.write("pt/torch/csrc/stable/api.h", """#pragma once
#include <torch/headeronly/version.h>
#define STABLE_MACRO(x) (x)
#define _INTERNAL_MACRO 1
namespace c10 { struct Half { unsigned short x; }; }
namespace torch::headeronly { using c10::Half; }
namespace torch::stable {
class Tensor {
 public:
  int dim() const;
  Tensor(const Tensor&) = default;
 private:
  void hidden();
};
Tensor& sum_out(Tensor& out, const Tensor& self);
int same(int a, c10::Half h);
namespace detail { int internal_only(); }
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0
bool newer(const Tensor& t);
#endif
}
""")
    ours_base = """#pragma once
#include <torch/headeronly/version.h>
#define STABLE_MACRO(x) (x)
namespace torch::headeronly { struct Half { unsigned short x; }; }
namespace c10 { using torch::headeronly::Half; }
namespace torch::stable {
class Tensor {
 public:
  int dim() const;
};
%s
int same(int, const torch::headeronly::Half h);
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0
%s
#endif
}
"""
    for d in ("ours_good", "ours_bad"):
        c.write(d + "/torch/headeronly/version.h", version_h % 10)
        c.write(d + "/torch/csrc/stable/c/shim.h", "/* C */\n")
    c.write("ours_good/torch/headeronly/util/extra.h", "#pragma once\n#define PT_ONLY_MACRO 1\n")
    c.write("ours_good/torch/csrc/stable/api.h",
            ours_base % ("Tensor& sum_out(Tensor& out, const Tensor& self);",
                         "bool newer(const Tensor& t);"))
    c.write("ours_bad/torch/csrc/stable/api.h",
            ours_base % ("Tensor sum_out(const Tensor& out, const Tensor& self);", ""))
    c.write("list.txt", "torch/headeronly/version.h\ntorch/headeronly/util/extra.h\n")
    c.write("reviewed.txt", "function torch::stable::newer  # being added\n")
    c.write("stale.txt", "function torch::stable::newer  # being added\nmacro GONE  # gone\n")
    pt = ["--pytorch-include", c.path("pt"), "--levels", "2.10,2.12", "--clang", clang,
          "--header-list", c.path("list.txt")]
    c.expect("same declarations", "check_cxx_declarations.py",
             pt + ["--ours", c.path("ours_good")], True)
    c.expect("every kind of difference", "check_cxx_declarations.py",
             pt + ["--ours", c.path("ours_bad"), "--reviewed", c.path("reviewed.txt")], False,
             [r"DIFFERS   missing header torch/headeronly/util/extra.h",
              r"signature differs: torch::stable::sum_out PyTorch Tensor&\(Tensor&,const Tensor&\); "
              r"ours Tensor\(const Tensor&,const Tensor&\)",
              r"reviewed  missing function torch::stable::newer: bool\(const Tensor&\) \[being added\]"])
    c.expect("unreviewed gap at a higher level only", "check_cxx_declarations.py",
             pt + ["--ours", c.path("ours_bad")], False,
             [r"level 2.12 .*\n    DIFFERS   missing function torch::stable::newer"])
    c.expect("stale reviewed entry", "check_cxx_declarations.py",
             pt + ["--ours", c.path("ours_good"), "--reviewed", c.path("stale.txt")], False,
             [r"STALE reviewed entry 'macro GONE'"])


# ---- checks 6 and 7 --------------------------------------------------------

def case_imports(c):
    c.write("core.cpp", "namespace st { __attribute__((__visibility__(\"default\"))) "
            "int add(int a, int b) { return a + b; } }\n")
    c.write("capi.c", "#define E __attribute__((__visibility__(\"default\")))\n"
            "E int aoti_torch_old(void) { return 1; }\nE int torch_newer(void) { return 2; }\n"
            "E int torch_unreleased(void) { return 3; }\nE int stabletorch_extra(void) { return 4; }\n")
    c.shared("libscratchcore.so", ["core.cpp"], lang="cxx")
    c.shared("libstabletorch.so", ["capi.c"])
    golden = c.write("baselines/0.1.0/exported_symbols.txt",
                     "aoti_torch_old: TORCH_VERSION_2_9_0\ntorch_newer: TORCH_VERSION_2_10_0\n"
                     "stabletorch_extra: STABLETORCH_0_1_0\n")
    c.write("plugin_c.cpp", """#include <cstdio>
#include <string>
extern "C" int aoti_torch_old(void);
extern "C" int torch_newer(void);
extern "C" int torch_unreleased(void);
extern "C" int stabletorch_extra(void);
namespace st { int add(int, int); }
extern "C" __attribute__((__visibility__("default"))) int plug(int x) {
  std::string s = std::to_string(x);
  std::printf("%s\\n", s.c_str());
  int r = aoti_torch_old() + stabletorch_extra();
#if USE_NEWER
  r += torch_newer();
#endif
#if USE_UNRELEASED
  r += torch_unreleased();
#endif
#if USE_CORE_CXX
  r += st::add(1, 2);
#endif
  return r;
}
""")
    libs = ["-lstabletorch"]
    clean = c.shared("libplug_clean.so", ["plugin_c.cpp"], ["-DUSE_NEWER=0"], libs, lang="cxx")
    newer = c.shared("libplug_newer.so", ["plugin_c.cpp"], ["-DUSE_NEWER=1"], libs, lang="cxx")
    unrel = c.shared("libplug_unrel.so", ["plugin_c.cpp"], ["-DUSE_UNRELEASED=1"], libs, lang="cxx")
    cxx = c.shared("libplug_cxx.so", ["plugin_c.cpp"], ["-DUSE_CORE_CXX=1"],
                   libs + ["-lscratchcore"], lang="cxx")
    c.expect("import audit control", "check_imports.py", ["--plugin", clean], True)
    c.expect("plugin imports the core's C++ API", "check_imports.py", ["--plugin", cxx], False,
             [r"libplug_cxx\.so imports _ZN2st3addEii \(st::add\(int, int\)\)"])
    c.expect("target 2.9 control", "check_imports.py",
             ["--plugin", clean, "--target-level", "2.9", "--golden", golden], True)
    c.expect("target 2.10 may use 2.10", "check_imports.py",
             ["--plugin", newer, "--target-level", "0x020A000000000000", "--golden", golden], True)
    c.expect("target 2.9 imports a 2.10 function", "check_imports.py",
             ["--plugin", newer, "--target-level", "2.9", "--golden", golden], False,
             [r"\(target 2\.9\.0\) imports torch_newer, introduced at TORCH_VERSION_2_10_0"])
    c.expect("imports a function the release never had", "check_imports.py",
             ["--plugin", unrel, "--target-level", "2.10", "--golden", golden], False,
             [r"imports torch_unreleased, which release 0\.1\.0 never exported"])
    c.expect("coverage: a function of the level is not called", "check_imports.py",
             ["--plugin", clean, "--target-level", "2.10", "--require-all", golden], False,
             [r"does not call torch_newer \(TORCH_VERSION_2_10_0\)"])
    exempt = c.write("not_covered.txt", "torch_newer  # exercised elsewhere\n")
    c.expect("coverage with a documented exemption", "check_imports.py",
             ["--plugin", clean, "--target-level", "2.10", "--require-all", golden,
              "--not-covered", exempt], True)
    gaps = c.write("release_gaps.txt", "0.1.0: torch_unreleased  # a gap of 0.1.0's claim\n")
    c.expect("a reviewed gap of the release's claim", "check_imports.py",
             ["--plugin", unrel, "--target-level", "2.10", "--golden", golden,
              "--release-gaps", gaps], True)
    # --exported-by: another runtime that lacks the stabletorch addition.
    c.write("other_runtime.c", "#define E __attribute__((__visibility__(\"default\")))\n"
            "E int aoti_torch_old(void) { return 1; }\nE int torch_newer(void) { return 2; }\n")
    other = c.shared("libother_runtime.so", ["other_runtime.c"])
    c.expect("portable: another runtime lacks an import", "check_imports.py",
             ["--plugin", newer, "--exported-by", other], False,
             [r"imports stabletorch_extra, which libother_runtime\.so does not export"])
    c.expect("portable: only PyTorch's prefixes checked", "check_imports.py",
             ["--plugin", newer, "--exported-by", other, "--checked-prefix", "aoti_torch_",
              "--checked-prefix", "torch_"], True)


def case_release_headers(c):
    import base64
    import hashlib
    import zipfile

    def record_line(name, data):
        h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        return "%s,sha256=%s,%d\n" % (name, h, len(data))

    members = {"torch/include/torch/a.h": b"int a;\n" * 1000,
               "torch/include/torch/csrc/b.h": b"int b;\n",
               "torch/lib/libtorch_cpu.so": b"\0" * 4096}

    def wheel(name, corrupt=None, drop=None, zip64=False):
        path = c.path(name)
        record = "".join(record_line(n, d) for n, d in members.items())
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as z:
            for n, d in members.items():
                if n == drop:
                    continue
                with z.open(n, "w", force_zip64=zip64) as f:
                    f.write(b"tampered" if n == corrupt else d)
            z.writestr("torch-9.9.0.dist-info/RECORD", record)
        return path

    script = "pytorch_release_headers.py"
    for label, w in (("headers of a wheel", wheel("good.whl")),
                     ("headers of a zip64 wheel", wheel("zip64.whl", zip64=True))):
        cache = c.path("cache_" + os.path.basename(w))
        c.expect(label, script, ["--version", "9.9.0", "--cache", cache, "--wheel-file", w], True)
        got = open(os.path.join(cache, "9.9.0", "torch/include/torch/a.h"), "rb").read()
        if got != members["torch/include/torch/a.h"]:
            raise SelfTestFailure("[%s] a.h was not extracted intact" % label)
        if os.path.exists(os.path.join(cache, "9.9.0", "torch/lib")):
            raise SelfTestFailure("[%s] a member outside torch/include/ was extracted" % label)
    c.expect("a header differs from RECORD", script,
             ["--version", "9.9.0", "--cache", c.path("cache_bad"), "--wheel-file",
              wheel("bad.whl", corrupt="torch/include/torch/csrc/b.h")], False,
             [r"1 headers do not match the wheel's RECORD \(torch/include/torch/csrc/b\.h\)"])
    c.expect("a header RECORD lists is missing", script,
             ["--version", "9.9.0", "--cache", c.path("cache_missing"), "--wheel-file",
              wheel("missing.whl", drop="torch/include/torch/a.h")], False,
             [r"1 listed there are missing \(torch/include/torch/a\.h\)"])


def case_compile_probe(c):
    c.write("api.h", "#define LEVEL_2_10 0x020A000000000000ULL\n"
            "#if TARGET >= LEVEL_2_10\nint newer_api(int);\n#endif\nint older_api(int);\n")
    c.write("use_newer.c", "#include \"api.h\"\nint f(void) { return newer_api(1); }\n")
    c.write("use_older.c", "#include \"api.h\"\nint f(void) { return older_api(1); }\n")
    c.write("typo.c", "#include \"api.h\"\nint f(void) { return older_apii(1); }\n")
    base = [c.cc, "-std=c11", "-Werror", "-fsyntax-only", "-I" + c.work]
    t29 = "-DTARGET=0x0209000000000000ULL"
    c.expect("negative probe (newer API under old target)", "compile_probe.py",
             ["--expect", "fail", "--message", "newer_api", "--"] + base + [t29, c.path("use_newer.c")], True)
    c.expect("positive control", "compile_probe.py",
             ["--expect", "pass", "--"] + base + [t29, c.path("use_older.c")], True)
    c.expect("version block removed: newer API compiles under old target", "compile_probe.py",
             ["--expect", "fail", "--message", "newer_api", "--"] + base +
             ["-DTARGET=0x020A000000000000ULL", c.path("use_newer.c")], False, [r"but it compiled"])
    c.expect("probe fails for an unrelated reason", "compile_probe.py",
             ["--expect", "fail", "--message", "newer_api", "--"] + base + [t29, c.path("typo.c")],
             False, [r"not the expected one"])


def case_policy_doc(c):
    good = """# ABI policy
## Version numbering
| release | level |
|---|---|
| 0.1.0 | 2.10 |
## What a minor release may change
## What needs a major release
## How long a level is supported
## How to add a function
See `abi_checks/check_tool.py`.
## Refreshing baselines
"""
    c.write("repo/abi_checks/check_tool.py", "")
    c.write("repo/abi_checks/baselines/0.1.0/abi_level.txt", "2.10.0\n")
    doc = c.write("repo/docs/abi_policy.md", good)
    args = ["--doc", doc, "--repo", c.path("repo"), "--baselines", c.path("repo/abi_checks/baselines")]
    c.expect("control", "check_policy_doc.py", args, True)
    c.write("repo/docs/abi_policy.md", good.replace("## How to add a function\n", ""))
    c.expect("section missing", "check_policy_doc.py", args, False, [r"no section about adding a function"])
    c.write("repo/docs/abi_policy.md", good.replace("check_tool.py", "check_gone.py"))
    c.expect("stale reference", "check_policy_doc.py", args, False,
             [r"refers to `abi_checks/check_gone\.py`, which does not exist"])
    c.write("repo/docs/abi_policy.md", good.replace("| 0.1.0 | 2.10 |", "| 0.1.0 | 2.9 |"))
    c.expect("stated level disagrees with the baseline", "check_policy_doc.py", args, False,
             [r"states level 2\.9 for release 0\.1\.0, but its abi_level\.txt says 2\.10\.0"])


CASES = {
    "exported_symbols": case_exported_symbols,
    "abi_diff": case_abi_diff,
    "c_headers": case_c_headers,
    "code_pins": case_code_pins,
    "needed": case_needed,
    "imports": case_imports,
    "release_headers": case_release_headers,
    "dlopen": case_dlopen,
    "declarations": case_declarations,
    "cxx_declarations": case_cxx_declarations,
    "compile_probe": case_compile_probe,
    "policy_doc": case_policy_doc,
}


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("case", choices=sorted(CASES))
    p.add_argument("--cc", default=os.environ.get("CC", "cc"))
    p.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    p.add_argument("-I", "--include-dir", action="append", default=[])
    p.add_argument("--keep", action="store_true", help="keep the scratch directory")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="abi_selftest_%s_" % args.case)
    ctx = Ctx(args, work)
    try:
        CASES[args.case](ctx)
    except SelfTestFailure as e:
        sys.stderr.write("SELF-TEST FAILED (%s): %s\n(scratch dir kept: %s)\n" % (args.case, e, work))
        return 1
    print("%s: all %d scratch cases behaved" % (args.case, ctx.count))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
