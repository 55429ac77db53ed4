#!/usr/bin/env python3
"""Bounded randomized mutation test of native_functions.yaml validation
(tools/codegen/gen_native.py).

gen_native.py is Python and atheris is not packaged by Debian, so this is a
seeded mutation loop rather than a coverage-guided fuzzer: it takes a few
entries of the real native_functions.yaml (and the seed files under
tests/fuzz/corpus/native_functions_yaml/), applies random mutations (byte
flips, token swaps from the schema grammar, deleted/duplicated/swapped
lines, truncation, inserted YAML syntax), and runs the generator's whole
front end (load() and output_files()) on each mutant.

The rule: every input is either accepted or rejected with a ValidationError
whose message says where (the file name or a line). Any other exception
(KeyError, TypeError, IndexError, RecursionError, ...) is a bug; the
offending input is written to --crash-dir and the test fails.

  fuzz_native_functions_yaml.py GEN_NATIVE_PY NATIVE_FUNCTIONS_YAML CORPUS_DIR
      [--iterations N] [--seconds S] [--seed K] [--crash-dir DIR]
"""

import argparse
import importlib.util
import os
import random
import sys
import tempfile
import time
import traceback

sys.dont_write_bytecode = True

TOKENS = [
    "Tensor", "Tensor(a)", "Tensor(a!)", "Tensor(b!)", "Tensor?", "Tensor[]", "Tensor?[]",
    "int", "int[]", "int[2]", "int?", "SymInt", "SymInt[]", "float", "float?", "bool",
    "bool[3]", "str", "Scalar", "Scalar?", "ScalarType?", "Layout?", "Device?",
    "MemoryFormat?", "Generator?", "Dimname", "*", ",", "(", ")", "->", "=", "[", "]", "!",
    "?", ".", "self", "out", "other", "alpha=1", "dim=-1", "keepdim=False", "None", "True",
    "1e10", "-", "_", "__", "a", "()", "(Tensor, Tensor)", "...", "\t", " ", "",
    "dispatch:", "variants:", "function", "method", "CPU:", "CUDA:", "Meta:",
    "CompositeExplicitAutograd:", "CompositeImplicitAutograd:", "structured: True",
    "manual_kernel_registration: True", "category_override: factory", "tags: core",
    "cpp_no_default_args: ['dim']", "- func:", "{", "}", ": ", "- ", "&a", "*a", "!!python/none",
    "'", '"', "#", "\n", "\n  ", "\n- ", "|", ">", "~", "null", "[]", "{}", "0x10",
]


def load_module(path):
    spec = importlib.util.spec_from_file_location("gen_native", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def split_entries(text):
    """The real file's entries, each a block starting at '- func:'."""
    entries, cur = [], []
    for line in text.splitlines(True):
        if line.startswith("- func:") and cur:
            entries.append("".join(cur))
            cur = []
        if line.startswith("- func:") or cur:
            cur.append(line)
    if cur:
        entries.append("".join(cur))
    return entries


def mutate(rng, text):
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(8)
        if not text:
            text = rng.choice(TOKENS)
            continue
        pos = rng.randrange(len(text) + 1)
        if kind == 0:  # flip a character
            if pos < len(text):
                text = text[:pos] + chr(rng.randrange(1, 128)) + text[pos + 1:]
        elif kind == 1:  # insert a grammar token
            text = text[:pos] + rng.choice(TOKENS) + text[pos:]
        elif kind == 2:  # delete a span
            end = min(len(text), pos + rng.randint(1, 12))
            text = text[:pos] + text[end:]
        elif kind == 3:  # replace a word with a token
            words = text.split(" ")
            words[rng.randrange(len(words))] = rng.choice(TOKENS)
            text = " ".join(words)
        elif kind == 4:  # duplicate a line
            lines = text.splitlines(True)
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            text = "".join(lines)
        elif kind == 5:  # drop a line
            lines = text.splitlines(True)
            del lines[rng.randrange(len(lines))]
            text = "".join(lines)
        elif kind == 6:  # swap two lines
            lines = text.splitlines(True)
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "".join(lines)
        else:  # truncate
            text = text[:pos]
    return text


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gen_native")
    p.add_argument("yaml")
    p.add_argument("corpus")
    p.add_argument("--iterations", type=int, default=3000)
    p.add_argument("--seconds", type=float, default=20.0, help="stop early after this long")
    p.add_argument("--seed", type=int, default=int(os.environ.get("STABLETORCH_FUZZ_SEED", "1")))
    p.add_argument("--crash-dir", default=tempfile.gettempdir())
    args = p.parse_args()

    gen = load_module(args.gen_native)
    with open(args.yaml, encoding="utf-8") as f:
        entries = split_entries(f.read())
    seeds = []
    if os.path.isdir(args.corpus):
        for name in sorted(os.listdir(args.corpus)):
            with open(os.path.join(args.corpus, name), encoding="utf-8", errors="replace") as f:
                seeds.append(f.read())
    rng = random.Random(args.seed)
    accepted = rejected = 0
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="fuzz_yaml_") as work:
        path = os.path.join(work, "native_functions.yaml")
        i = 0
        for i in range(args.iterations):
            if time.monotonic() - start > args.seconds:
                break
            if seeds and rng.random() < 0.3:
                base = rng.choice(seeds)
            else:
                base = "".join(rng.sample(entries, min(len(entries), rng.randint(1, 4))))
            text = mutate(rng, base)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            try:
                fns = gen.load(path)
                gen.output_files(fns)
                accepted += 1
            except gen.ValidationError as e:
                msg = str(e)
                if "native_functions.yaml" not in msg and "line" not in msg:
                    print("FAILED: iteration %d: a ValidationError that does not say where: %r"
                          % (i, msg))
                    return 1
                rejected += 1
            except Exception:  # noqa: BLE001 - exactly what the fuzzer hunts
                crash = os.path.join(args.crash_dir, "native_functions_crash_%d_%d.yaml"
                                     % (args.seed, i))
                with open(crash, "w", encoding="utf-8") as f:
                    f.write(text)
                print("FAILED: iteration %d (seed %d): gen_native.py raised something other "
                      "than ValidationError; input saved to %s\n%s"
                      % (i, args.seed, crash, traceback.format_exc()))
                return 1
        else:
            i = args.iterations
    total = accepted + rejected
    print("OK: %d mutated native_functions.yaml inputs in %.1f s (seed %d): %d accepted, "
          "%d rejected with a ValidationError, 0 other exceptions"
          % (total, time.monotonic() - start, args.seed, accepted, rejected))
    return 0 if total > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
