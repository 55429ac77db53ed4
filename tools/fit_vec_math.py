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


erf = np.vectorize(math.erf)
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

# tanh(x) = x + x^3 T(x^2), |x| <= 0.625
r = cheb(1e-2, 0.625)
z = r * r
c = lawson(powers(z, 5) * (r * z)[:, None], np.tanh(r) - r, np.tanh(r))
report("tanh", c, r + r * z * (powers(z, 5) @ c), np.tanh(r))

# gelu's normal CDF Phi(x) = 1/2 + x P(x^2), |x| <= 1
r = cheb(1e-3, 1.0)
z = r * r
exact = 0.5 + 0.5 * erf(r / math.sqrt(2))
c = lawson(powers(z, 5) * r[:, None], exact - 0.5, exact)
report("phi_small", c, 0.5 + r * (powers(z, 5) @ c), exact)

# The upper tail Q(a) = 1 - Phi(a) = exp(-a^2/2) G(t), t = 1/(1 + a/2),
# a in [1, 14] (Q(14) is below float's smallest denormal).
t = cheb(1 / (1 + 0.5 * 14), 1 / (1 + 0.5 * 1.0))
a = (1 / t - 1) / 0.5
g = 0.5 * erfc(a / math.sqrt(2)) * np.exp(a * a / 2)
c = lawson(powers(t, 8), g, g)
report("phi_tail", c, powers(t, 8) @ c, g)
