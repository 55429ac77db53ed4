#!/usr/bin/env python3
"""The README demo from Python: load the sample_op plugin through the
project's loader and call its operators on NumPy data, without copies.

    PYTHONPATH=build/<preset>/python python python/examples/sample_op_demo.py build/sample_op/libsample_op.so
"""

import sys

import numpy as np

import stabletorch as st


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: sample_op_demo.py PATH/TO/libsample_op.so\n")
        return 2
    plugin = st.ops.load_library(argv[1])
    ops, kernels = plugin.counts
    print("loaded %s: %d operators, %d kernels" % (argv[1], ops, kernels))

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.full((2, 3), 0.5, dtype=np.float32)
    tx, ty = st.from_numpy(x), st.from_numpy(y)  # views of the NumPy memory
    print("\n>>> st.ops.sample_op.scale_add_clamp(x, y, 2.0, min=0.0, max=4.0)")
    print(st.ops.sample_op.scale_add_clamp(tx, ty, 2.0, min=0.0, max=4.0))

    print("\n>>> st.ops.sample_op.row_normalize(x)")
    print(st.ops.sample_op.row_normalize(tx).numpy())

    print("\n>>> st.ops.sample_op.scale_(x, 10.0)   # in place: the NumPy array changes")
    st.ops.sample_op.scale_(tx, 10.0)
    print(x)

    mean, var = st.ops.sample_op.moments(st.from_numpy(x.astype(np.float64)), [1])
    print("\n>>> st.ops.sample_op.moments(x, [1]) ->", mean.tolist(), var.tolist())
    print("\n>>> help(st.ops.sample_op.scale_add_clamp)")
    print(st.ops.sample_op.scale_add_clamp.__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
