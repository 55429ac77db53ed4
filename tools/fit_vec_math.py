#!/usr/bin/env python3
"""Fits the polynomial coefficients of the vector float functions in
core/src/native/cpu/vec_math_impl.inc and prints them as C++ float literals.

Each fit is a least-squares fit on Chebyshev nodes of the interval,
reweighted by the error (Lawson's iteration) towards the minimax
polynomial, of the relative error of the whole approximation; the
coefficients are then rounded to float and the printed error (in units of
2^-24 relative, evaluated in double) is that of the rounded coefficients.
Needs numpy. Run: python3 tools/fit_vec_math.py"""

import math

import numpy as np


def cheb(a, b, n=4000):
    k = np.arange(n)
    return (a + b) / 2 + (b - a) / 2 * np.cos((2 * k + 1) * np.pi / (2 * n))


def lawson(basis, target, scale):
    """Coefficients c minimizing max |basis @ c - target| / scale."""
    a = basis / scale[:, None]
    b = target / scale
    w = np.ones_like(b)
    for _ in range(60):
        c, *_ = np.linalg.lstsq(a * np.sqrt(w)[:, None], b * np.sqrt(w), rcond=None)
        e = np.abs(a @ c - b)
        w = w * e
        w /= w.sum()
    return np.float32(c).astype(np.float64)


def powers(x, degree):
    return np.stack([x**p for p in range(degree + 1)], 1)


def report(name, coeffs, approx, exact):
    err = np.max(np.abs(approx / exact - 1)) / 2.0**-24
    lits = ", ".join("%.9ef" % np.float32(c) for c in coeffs)
    print("%s (max relative error %.3f x 2^-24): {%s}" % (name, err, lits))


erfc = np.vectorize(math.erfc)

# exp(r) = 1 + r + r^2 P(r), |r| <= ln2/2
r = cheb(-0.3466, 0.3466)
r = r[np.abs(r) > 1e-3]
c = lawson(powers(r, 5) * (r * r)[:, None], np.expm1(r) - r, np.exp(r))
report("exp", c, 1 + r + r * r * (powers(r, 5) @ c), np.exp(r))

# log(1+f) = 2 atanh(s) = 2s + s z R(z), s = f/(2+f), z = s^2,
# f in [sqrt(1/2)-1, sqrt(2)-1)
smax = (math.sqrt(2) - 1) / (math.sqrt(2) + 1)
s = cheb(1e-3, smax)
z = s * s
exact = 2 * np.arctanh(s)
c = lawson(powers(z, 2) * (s * z)[:, None], exact - 2 * s, exact)
report("log", c, 2 * s + s * z * (powers(z, 2) @ c), exact)

# sin(r) = r + r^3 S(r^2), cos(r) = 1 - r^2/2 + r^4 C(r^2), |r| <= pi/4
r = cheb(0.03, math.pi / 4)
z = r * r
c = lawson(powers(z, 3) * (r * z)[:, None], np.sin(r) - r, np.sin(r))
report("sin", c, r + r * z * (powers(z, 3) @ c), np.sin(r))
c = lawson(powers(z, 3) * (z * z)[:, None], np.cos(r) - 1 + z / 2, np.cos(r))
report("cos", c, 1 - z / 2 + z * z * (powers(z, 3) @ c), np.cos(r))

# Tables of 32 polynomials of degree 6 (vec_math's row_poly): row j for
# a = |x| in [lo_j, hi_j), each a polynomial in t = a - c_j, c_j the row's
# middle as a float (t is exact), or c_0 = 0 with no constant term where
# the function is 0 at 0 (so that tiny arguments keep a relative error).
# The constant term is rounded first and the others refitted around it;
# the error printed is the float evaluation's (Horner, each step rounded
# once as a fused multiply-add) at float arguments, relative, in units of
# 2^-24.
def row_table(name, bounds, f, through_zero=False, rows=32, degree=6):
    table = [[] for _ in range(degree + 2)]
    worst = 0.0
    for j in range(rows):
        lo, hi = bounds(j)
        zero = through_zero and j == 0
        mid = 0.0 if zero else float(np.float32((lo + hi) / 2))
        a = np.float32(cheb(lo, hi)).astype(np.float64)
        t = a - mid
        exact = f(a)
        basis = powers(t, degree)
        if zero:
            c = np.concatenate([[0.0], lawson(basis[:, 1:], exact, exact)])
        else:
            c0 = lawson(basis, exact, exact)[0]
            c = np.concatenate([[c0], lawson(basis[:, 1:], exact - c0, exact)])
        tf = np.float32(t)
        p = np.float32(c[degree])
        for k in range(degree - 1, -1, -1):
            p = np.float32(p.astype(np.float64) * tf + c[k])
        worst = max(worst, np.max(np.abs(p / exact - 1)) / 2.0**-24)
        table[0].append(mid)
        for k in range(degree + 1):
            table[k + 1].append(c[k])
    print("%s table (rows: c_j, then the coefficients of t^0..t^%d; max relative error "
          "%.3f x 2^-24):" % (name, degree, worst))
    for row in table:
        lits = ["%.9ef" % np.float32(v) for v in row]
        print("  {" + ",\n   ".join(", ".join(lits[i:i + 4]) for i in range(0, rows, 4)) + "},")


# gelu: the upper tail Q(a) = 1 - Phi(a) of the normal CDF, row j for x^2
# in [j - 1/2, j + 1/2) (row 0: [0, 1/2)), picked by trunc(x^2 + 1/2), so
# the rows narrow as Q steepens; a little past each end, since x^2 + 1/2
# rounds before it picks the row.
erfc = np.vectorize(math.erfc)
row_table("gelu",
          lambda j: (math.sqrt(max(j - 0.5 - 1e-5, 1e-8)), math.sqrt(j + 0.5 + 1e-5)),
          lambda a: 0.5 * erfc(a / math.sqrt(2)))

# tanh(a), row j for a in [j, j + 1) / 3.5, picked by trunc(3.5 a): the
# rows reach 9.14, past 9.011 where tanh rounds to 1.
row_table("tanh", lambda j: (max(j / 3.5 * (1 - 1e-6), 1e-6), (j + 1) / 3.5 * (1 + 1e-6)),
          np.tanh, through_zero=True)
