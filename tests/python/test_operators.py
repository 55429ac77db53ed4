"""Python operators and PyTorch's type promotion, with NumPy as the oracle
(stabletorch/_C Tensor operators)."""

import operator

import numpy as np
import pytest

import stabletorch as st

FLOAT = [st.float32, st.float64]
INT = [st.int32, st.int64, st.int16, st.uint8]
NP = {st.float32: np.float32, st.float64: np.float64, st.int32: np.int32, st.int64: np.int64,
      st.int16: np.int16, st.uint8: np.uint8, st.bool: np.bool_}

SHAPES = [(), (1,), (5,), (3, 4), (2, 3, 4)]


def make(shape, dtype, seed, positive=False):
    rng = np.random.default_rng(seed)
    if dtype in FLOAT:
        a = rng.uniform(0.5 if positive else -3, 3, size=shape).astype(NP[dtype])
    elif dtype is st.bool:
        a = rng.integers(0, 2, size=shape).astype(np.bool_)
    else:
        a = rng.integers(1 if positive else 0, 9, size=shape).astype(NP[dtype])
    return a, st.tensor(a)


def check(t, expected, rtol=1e-5):
    expected = np.asarray(expected)
    assert t.shape == expected.shape
    np.testing.assert_allclose(t.numpy().astype(np.float64), expected.astype(np.float64),
                               rtol=rtol, atol=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", FLOAT + INT)
@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul])
def test_arithmetic_against_numpy(shape, dtype, op):
    a, ta = make(shape, dtype, 1)
    b, tb = make(shape, dtype, 2)
    r = op(ta, tb)
    assert r.dtype is dtype
    check(r, op(a, b))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", FLOAT)
def test_division_and_power(shape, dtype):
    a, ta = make(shape, dtype, 3, positive=True)
    b, tb = make(shape, dtype, 4, positive=True)
    check(ta / tb, a / b)
    check(ta // tb, np.floor_divide(a, b))
    check(ta % tb, np.mod(a, b), rtol=1e-4)
    check(ta ** tb, a ** b, rtol=1e-4)


def test_integer_true_division_promotes_to_float():
    r = st.tensor([1, 2, 3]) / 2
    assert r.dtype is st.float32 and r.tolist() == [0.5, 1.0, 1.5]


@pytest.mark.parametrize("dtype", INT)
def test_bitwise_and_shifts(dtype):
    a, ta = make((3, 4), dtype, 5)
    b, tb = make((3, 4), dtype, 6)
    check(ta & tb, a & b)
    check(ta | tb, a | b)
    check(ta ^ tb, a ^ b)
    check(ta << 1, a << 1)
    check(ta >> 1, a >> 1)
    check(~ta, ~a)


@pytest.mark.parametrize("op", [operator.eq, operator.ne, operator.lt, operator.le, operator.gt,
                                operator.ge])
def test_comparisons(op):
    a, ta = make((4, 5), st.float32, 7)
    b, tb = make((4, 5), st.float32, 8)
    r = op(ta, tb)
    assert r.dtype is st.bool
    np.testing.assert_array_equal(r.numpy(), op(a, b))
    np.testing.assert_array_equal(op(ta, 0.5).numpy(), op(a, np.float32(0.5)))


def test_python_numbers_are_wrapped_scalars():
    i = st.tensor([1, 2], dtype=st.int32)
    assert (i + 1).dtype is st.int32
    assert (i + 1.5).dtype is st.float32
    assert (st.tensor([1.0], dtype=st.float16) * 2.0).dtype is st.float16
    assert (2 - i).tolist() == [1, 0]
    assert (1 / st.tensor([2.0, 4.0])).tolist() == [0.5, 0.25]
    assert (2 ** st.tensor([1, 2])).tolist() == [2, 4]
    assert (True & st.tensor([True, False])).tolist() == [True, False]
    # A 0-dim tensor of a higher category sets the dtype; of the same one, it does not.
    assert (i + st.tensor(1.5, dtype=st.float64)).dtype is st.float64
    assert (st.tensor([1.0]) + st.tensor(1.5, dtype=st.float64)).dtype is st.float32
    assert (i + st.tensor([1.5], dtype=st.float64)).dtype is st.float64


def test_broadcasting_and_non_contiguous_operands():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    ta = st.tensor(a)
    check(ta.t() + st.tensor([1.0, 2.0, 3.0]), a.T + np.array([1, 2, 3], dtype=np.float32))
    check(ta[:, ::2] * 2, a[:, ::2] * 2)
    check(ta @ ta.t(), a @ a.T)
    check(st.tensor([1.0, 2.0]) @ st.tensor([3.0, 4.0]), np.float32(11))


def test_in_place_operators_keep_the_object():
    t = st.tensor([1.0, 2.0])
    same = t
    t += 1
    t *= st.tensor([2.0, 3.0])
    t -= 1
    t /= 2
    assert t is same and t.tolist() == [1.5, 4.0]
    i = st.tensor([6, 7])
    i //= 2
    i %= 2
    i <<= 1
    i |= 1
    assert i.tolist() == [3, 3]
    with pytest.raises(RuntimeError):
        f = st.tensor([1, 2])
        f += 1.5  # result type float can't be cast to int64 in place


def test_unary_operators():
    t = st.tensor([-1.5, 2.0])
    assert (-t).tolist() == [1.5, -2.0] and abs(t).tolist() == [1.5, 2.0] and (+t) is t
    assert (~st.tensor([True, False])).tolist() == [False, True]


def test_unsupported_operand_types_raise_type_error():
    with pytest.raises(TypeError):
        st.tensor([1]) + "a"
    assert (st.tensor([1]) == None) is False  # noqa: E711  (falls back to identity)


@pytest.mark.parametrize("dtype", FLOAT + INT)
@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul, operator.truediv,
                                operator.lt, operator.eq])
def test_non_contiguous_and_zero_dim_operands(dtype, op):
    a, ta = make((4, 6), dtype, 9, positive=True)
    s, ts = make((), dtype, 10, positive=True)
    views = [(a.T, ta.t()), (a[:, ::3], ta[:, ::3]), (a[1:3, 2:], ta[1:3, 2:])]
    for x, tx in views:
        assert not tx.is_contiguous() or x.flags.c_contiguous
        check(op(tx, ts), op(x, s), rtol=1e-5)  # same dtype: NumPy wraps as we do
        check(op(tx, tx), op(x, x), rtol=1e-5)


def test_numpy_scalars_defer_to_tensors():
    r = np.float64(2.0) * st.tensor([1.0, 2.0])
    assert isinstance(r, st.Tensor) and r.tolist() == [2.0, 4.0]
