"""Times the same 1-element add through the nanobind and pybind11 prototypes
(and NumPy's) in one process; see CMakeLists.txt for how to build them."""

import timeit

import numpy as np

import proto_nb
import proto_pb

N = 200000
for name, mod in (("nanobind", proto_nb), ("pybind11", proto_pb)):
    a, b = mod.ones1(), mod.ones1()
    op = min(timeit.repeat(lambda: a + b, number=N, repeat=5)) / N * 1e9
    f = mod.add
    fn = min(timeit.repeat(lambda: f(a, b), number=N, repeat=5)) / N * 1e9
    print("%s: a + b %.0f ns, add(a, b) %.0f ns" % (name, op, fn))
x, y = np.ones(1, np.float32), np.ones(1, np.float32)
print("numpy a + b %.0f ns" % (min(timeit.repeat(lambda: x + y, number=N, repeat=5)) / N * 1e9))
