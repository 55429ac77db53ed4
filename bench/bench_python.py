#!/usr/bin/env python3
"""Per-call overhead of stabletorch from Python, on 1-element tensors:

  st  a + b         the Python operator (typed C++ fast path)
  st  st.add(a, b)  the generated function (schema-driven generic path)
  st  a.add(b)      the generated method (generic path + a Python frame)
  C++ st::add       the same call from a C++ loop in this process
  C++ boxed         aten::add.Tensor through callBoxed from C++ (what the
                    generic path calls after binding the arguments)
  numpy a + b       1-element float32 arrays

Run from the repository root after building:
  PYTHONPATH=build/ci/python build/venv/bin/python bench/bench_python.py
Prints the best of several repeats (ns per call) and the ratio to NumPy.
"""

import argparse
import timeit

import numpy as np

import stabletorch as st


def best_ns(fn, number, repeat):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e9


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--number", type=int, default=100000)
    p.add_argument("--repeat", type=int, default=7)
    a_ = p.parse_args()
    a, b = st.ones(1), st.ones(1)
    x, y = np.ones(1, np.float32), np.ones(1, np.float32)
    add = st.add
    rows = [
        ("stabletorch a + b", best_ns(lambda: a + b, a_.number, a_.repeat)),
        ("stabletorch st.add(a, b)", best_ns(lambda: add(a, b), a_.number, a_.repeat)),
        ("stabletorch a.add(b)", best_ns(lambda: a.add(b), a_.number, a_.repeat)),
        ("C++ st::add(a, b)", min(st._C._time_cpp_add(a, b, a_.number) for _ in range(a_.repeat))),
        ("C++ boxed add.Tensor", min(st._C._time_cpp_boxed_add(a, b, a_.number)
                                     for _ in range(a_.repeat))),
        ("numpy a + b", best_ns(lambda: x + y, a_.number, a_.repeat)),
    ]
    numpy_ns = rows[-1][1]
    print("%-28s %10s %10s" % ("1-element float32 add", "ns/call", "vs numpy"))
    for name, ns in rows:
        print("%-28s %10.0f %9.2fx" % (name, ns, ns / numpy_ns))


if __name__ == "__main__":
    main()
