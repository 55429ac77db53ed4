"""Shared helpers of the ABI checkers (standard library only).

Vocabulary used by every checker:
  versions file   c_api/shim_function_versions.txt: one `symbol: LEVEL` per
                  line, LEVEL being TORCH_VERSION_<maj>_<min>_<patch> (the
                  stable-ABI level that introduced the symbol) or
                  STABLETORCH_<maj>_<min>_<patch> (a stabletorch addition,
                  available from that project release on, at every level).
  golden list     abi_checks/baselines/<release>/exported_symbols.txt: the
                  same format, frozen when <release> was cut.
  abi level       abi_checks/baselines/<release>/abi_level.txt: the stable-ABI
                  level that release claimed ("2.10.0").
"""

import os
import re
import shutil
import subprocess
import sys

C_ABI_PREFIXES = ("aoti_torch_", "torch_", "stabletorch_")

_LEVEL_RE = re.compile(r"^(TORCH_VERSION|STABLETORCH)_(\d+)_(\d+)_(\d+)$")
_LINE_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([A-Za-z0-9_]+)\s*$")


class CheckError(Exception):
    """A problem with the inputs themselves (missing file, bad syntax)."""


class Level:
    """A parsed level name: family 'torch' or 'stabletorch' and a triple."""

    def __init__(self, name):
        m = _LEVEL_RE.match(name)
        if not m:
            raise CheckError(
                "unknown level %r (expected TORCH_VERSION_<maj>_<min>_<patch> "
                "or STABLETORCH_<maj>_<min>_<patch>)" % name)
        self.name = name
        self.family = "torch" if m.group(1) == "TORCH_VERSION" else "stabletorch"
        self.version = (int(m.group(2)), int(m.group(3)), int(m.group(4)))

    def dotted(self):
        return "%d.%d.%d" % self.version

    def __repr__(self):
        return self.name


def split_top_level(text, sep=",", opens="([", closes=")]"):
    """Splits text on `sep` where no bracket of `opens`/`closes` is open.
    Parts are returned stripped; an empty or all-blank text gives [].
    (C parameter lists, C++ template argument lists with opens="([<{",
    operator schemas.)"""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in opens:
            depth += 1
        elif ch in closes:
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def parse_version_triple(text):
    """'2.10', '2.10.0', '0x020A000000000000', 'TORCH_VERSION_2_10_0' -> (2, 10, 0)."""
    text = text.strip()
    m = _LEVEL_RE.match(text)
    if m:
        return (int(m.group(2)), int(m.group(3)), int(m.group(4)))
    if text.lower().startswith("0x"):
        value = int(text.rstrip("uUlL"), 16)
        return ((value >> 56) & 0xFF, (value >> 48) & 0xFF, (value >> 40) & 0xFF)
    parts = text.split(".")
    if not 1 <= len(parts) <= 3 or not all(p.isdigit() for p in parts):
        raise CheckError("cannot parse version %r" % text)
    nums = [int(p) for p in parts] + [0] * (3 - len(parts))
    return tuple(nums)


def read_symbol_levels(path):
    """Parses a versions file or golden list into {symbol: Level}."""
    if not os.path.isfile(path):
        raise CheckError("%s: no such file" % path)
    result = {}
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            m = _LINE_RE.match(line)
            if not m:
                raise CheckError("%s:%d: expected `symbol: LEVEL`, got %r"
                                 % (path, lineno, raw.rstrip("\n")))
            symbol, level_name = m.group(1), m.group(2)
            try:
                level = Level(level_name)
            except CheckError as e:
                raise CheckError("%s:%d: %s" % (path, lineno, e))
            if symbol in result:
                raise CheckError("%s:%d: %s listed twice" % (path, lineno, symbol))
            result[symbol] = level
    return result


def write_symbol_levels(path, levels, header):
    with open(path, "w", encoding="utf-8") as f:
        for line in header:
            f.write("# %s\n" % line)
        for symbol in sorted(levels):
            f.write("%s: %s\n" % (symbol, levels[symbol].name))


def symbols_available_at(levels, torch_level):
    """Symbols an extension targeting torch_level may import: torch-family
    symbols of that level or older, and every stabletorch symbol listed."""
    return {s for s, lv in levels.items()
            if lv.family == "stabletorch" or lv.version <= torch_level}


def require_tool(name, hint=""):
    path = shutil.which(name)
    if not path:
        raise CheckError("required tool %r not found on PATH%s" % (name, hint))
    return path


def run(cmd, check=True):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    if check and proc.returncode != 0:
        raise CheckError("command failed (%d): %s\n%s%s" % (
            proc.returncode, " ".join(cmd), proc.stdout, proc.stderr))
    return proc


def _nm_dynamic(path, flag):
    require_tool("nm", " (binutils)")
    if not os.path.isfile(path):
        raise CheckError("%s: no such file" % path)
    out = run(["nm", "-D", flag, "--with-symbol-versions", path]).stdout
    symbols = []
    for line in out.splitlines():
        fields = line.split()
        if not fields:
            continue
        # "<addr> T name@@VER" (defined) or "U name@VER" / "w name" (undefined)
        kind, name = fields[-2], fields[-1]
        symbols.append((kind, name))
    return symbols


def split_version(name):
    """'malloc@GLIBC_2.2.5' -> ('malloc', 'GLIBC_2.2.5'); 'foo' -> ('foo', '')."""
    if "@" in name:
        base, _, ver = name.partition("@")
        return base, ver.lstrip("@")
    return name, ""


def exported_functions(path):
    """Defined dynamic symbols of a shared object (names without versions),
    excluding the linker's own version-node symbols."""
    result = set()
    for kind, name in _nm_dynamic(path, "--defined-only"):
        base, _ = split_version(name)
        if kind == "A":  # version definition nodes
            continue
        result.add(base)
    return result


def undefined_symbols(path):
    """[(kind, name, version)] of the undefined dynamic symbols."""
    result = []
    for kind, name in _nm_dynamic(path, "--undefined-only"):
        base, ver = split_version(name)
        result.append((kind, base, ver))
    return result


def _dynamic_section(path):
    """The lines of `readelf -d` for an ELF file."""
    require_tool("readelf", " (binutils)")
    if not os.path.isfile(path):
        raise CheckError("%s: no such file" % path)
    return run(["readelf", "-d", "-W", path]).stdout.splitlines()


def needed_libraries(path):
    """The DT_NEEDED entries of an ELF file, in order."""
    needed = []
    for line in _dynamic_section(path):
        if "(NEEDED)" in line:
            m = re.search(r"\[(.*)\]", line)
            if m:
                needed.append(m.group(1))
    return needed


def dynamic_flags(path):
    """The set of DT_FLAGS and DT_FLAGS_1 words (e.g. STATIC_TLS, NOW)."""
    flags = set()
    for line in _dynamic_section(path):
        m = re.search(r"\(FLAGS(?:_1)?\)\s+(?:Flags:)?(.*)$", line)
        if m:
            flags.update(m.group(1).split())
    return flags


SANITIZER_RUNTIME = re.compile(r"^lib(asan|tsan|ubsan|lsan|hwasan|msan)\.so|^libclang_rt\.")


def _library_path(soname):
    """Where the dynamic linker finds `soname` (from `ldconfig -p`), or None."""
    out = run(["ldconfig", "-p"], check=False).stdout
    for line in out.splitlines():
        head, _, path = line.partition("=>")
        if head.strip().split(" ")[0] == soname and path.strip():
            return path.strip()
    return None


def sanitizer_runtime_symbols(path):
    """Names a sanitizer runtime among the DT_NEEDED of `path` defines.

    A plugin built with -fsanitize=... binds its C/C++ runtime calls
    (memcpy, operator new, __cxa_throw, dlopen, ...) to the sanitizer's
    interceptors, which are unversioned: without this set they would look
    like imports from nowhere. Empty for an uninstrumented plugin."""
    result = set()
    for soname in needed_libraries(path):
        if not SANITIZER_RUNTIME.match(soname):
            continue
        lib = _library_path(soname)
        if lib is None:
            raise CheckError("%s needs %s, which the dynamic linker cannot find"
                             % (os.path.basename(path), soname))
        result |= exported_functions(lib)
    return result


def demangle(names):
    """Best-effort demangling through c++filt; identity without it."""
    names = list(names)
    tool = shutil.which("c++filt")
    if not tool or not names:
        return {n: n for n in names}
    proc = subprocess.run([tool], input="\n".join(names) + "\n",
                          stdout=subprocess.PIPE, universal_newlines=True)
    out = proc.stdout.splitlines()
    if len(out) != len(names):
        return {n: n for n in names}
    return dict(zip(names, out))


def baseline_dirs(baselines_root):
    """[(version triple, dir)] of every release baseline, oldest first."""
    result = []
    if not os.path.isdir(baselines_root):
        return result
    for entry in os.listdir(baselines_root):
        full = os.path.join(baselines_root, entry)
        if os.path.isdir(full) and re.match(r"^\d+\.\d+\.\d+$", entry):
            result.append((parse_version_triple(entry), full))
    result.sort()
    return result


def fail(messages, title):
    """Prints a failure report and returns exit status 1."""
    sys.stderr.write("FAILED: %s\n" % title)
    for m in messages:
        sys.stderr.write("  - %s\n" % m)
    return 1


def main_wrapper(main):
    try:
        sys.exit(main())
    except CheckError as e:
        sys.stderr.write("ERROR: %s\n" % e)
        sys.exit(2)


def read_reviewed(path):
    """The entries of a reviewed-differences list (declaration_gaps.txt,
    cxx_declaration_gaps.txt): one regex per line, then '# reason'. Each
    entry is [compiled pattern, pattern, reason, times matched]; an entry
    without a reason is refused."""
    entries = []
    if not path:
        return entries
    for raw in open(path, encoding="utf-8"):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pattern, _, reason = line.partition("#")
        pattern = pattern.strip()
        if not reason.strip():
            raise SystemExit("%s: entry %r has no '# reason'" % (path, pattern))
        entries.append([re.compile("^%s$" % pattern), pattern, reason.strip(), 0])
    return entries
