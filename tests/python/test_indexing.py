"""Tensor.__getitem__ / __setitem__ (stabletorch/_indexing.py), NumPy as the
oracle; basic indices must give views."""

import numpy as np
import pytest

import stabletorch as st

A = np.arange(60).reshape(3, 4, 5)


@pytest.mark.parametrize("index", [
    0, -1, (1, 2), (1, 2, 3), slice(None), slice(1, None), slice(None, None, 2),
    (slice(None), slice(1, 3)), (Ellipsis, 1), (0, Ellipsis, slice(None, None, 3)),
    (None, 1), (slice(None), None, 0), (-1, slice(-3, None), slice(None, 4, 2)),
    (slice(5, 1),),
])
def test_basic_indexing_matches_numpy_and_views(index):
    t = st.tensor(A)
    r = t[index]
    expected = A[index]
    assert r.shape == expected.shape
    np.testing.assert_array_equal(r.numpy(), expected)
    assert r._is_alias_of(t)


def test_advanced_indexing_matches_numpy():
    t = st.tensor(A)
    np.testing.assert_array_equal(t[st.tensor([2, 0])].numpy(), A[[2, 0]])
    np.testing.assert_array_equal(t[[0, 2]].numpy(), A[[0, 2]])
    np.testing.assert_array_equal(t[:, st.tensor([1, 3])].numpy(), A[:, [1, 3]])
    mask = A[:, :, 0] % 10 == 0
    np.testing.assert_array_equal(t[st.tensor(mask)].numpy(), A[mask])
    np.testing.assert_array_equal(t[t > 50].numpy(), A[A > 50])


def test_index_errors():
    t = st.tensor(A)
    with pytest.raises(IndexError, match="out of bounds"):
        t[3]
    with pytest.raises(IndexError, match="too many indices"):
        t[0, 0, 0, 0]
    with pytest.raises(IndexError):
        t["a"]
    with pytest.raises(IndexError):
        st.tensor(1)[0]
    with pytest.raises(ValueError):
        t[::-1]


def test_setitem_scalars_tensors_masks_and_index_tensors():
    t = st.zeros(3, 4)
    a = np.zeros((3, 4), dtype=np.float32)
    t[0] = 1
    a[0] = 1
    t[:, 1] = st.tensor([5.0, 6.0, 7.0])
    a[:, 1] = [5, 6, 7]
    t[1:, ::2] = 2.5
    a[1:, ::2] = 2.5
    t[t > 5] = -1
    a[a > 5] = -1
    t[st.tensor([2, 0])] = 9
    a[[2, 0]] = 9
    np.testing.assert_array_equal(t.numpy(), a)
    v = st.zeros(2, 2)
    row = v[0]
    row[1] = 3  # writes through the view
    assert v.tolist() == [[0.0, 3.0], [0.0, 0.0]]


def test_setitem_from_numpy_and_lists_and_contains():
    t = st.zeros(2, 3)
    t[0] = np.array([1.0, 2.0, 3.0])
    t[1] = [4, 5, 6]
    assert t.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert 5 in t and 7 not in t


@pytest.mark.parametrize("index", [
    (np.array([0, 2]), np.array([1, 3])),
    (slice(None), np.array([3, 0, 3])),
    (np.array([[0], [2]]), np.array([1, 2])),
    (A[:, :, 0] % 20 == 0,),
    (1, A[1, :, :] % 3 == 0),
    (Ellipsis, np.array([4, 0])),
])
def test_setitem_through_tensor_indices_matches_numpy(index):
    a = A.copy()
    t = st.tensor(A)
    st_index = tuple(st.tensor(i) if isinstance(i, np.ndarray) else i for i in index)
    a[index] = -1
    t[st_index] = -1
    np.testing.assert_array_equal(t.numpy(), a)
    b = A.copy()
    u = st.tensor(A)
    values = np.arange(b[index].size).reshape(b[index].shape) * 10
    b[index] = values
    u[st_index] = st.tensor(values)
    np.testing.assert_array_equal(u.numpy(), b)


def test_setitem_with_tensor_indices_on_a_non_contiguous_view():
    base = st.zeros(4, 6)
    view = base.t()[1:5:2]   # shape (2, 4), strides (2, 6)
    view[st.tensor([1, 0]), st.tensor([3, 2])] = 5
    expected = np.zeros((4, 6), dtype=np.float32)
    expected.T[1:5:2][[1, 0], [3, 2]] = 5
    np.testing.assert_array_equal(base.numpy(), expected)


DTYPES = ["float32", "float64", "float16", "bfloat16", "int8", "int32", "int64", "uint8",
          "bool", "complex64"]


def _np(t):
    return t.to(dtype=st.float64).numpy() if t.dtype is st.bfloat16 else t.numpy()


@pytest.mark.parametrize("dtype", DTYPES)
def test_index_put_matches_numpy_for_every_dtype(dtype):
    st_dtype = getattr(st, dtype)
    base = (np.arange(24).reshape(4, 6) % 3).astype(np.float64)
    a = st.tensor(base).to(dtype=st_dtype)
    want = _np(a).copy()
    rows, cols = np.array([3, 0, 2]), np.array([5, 1, 1])
    vals = st.tensor([1.0, 0.0, 1.0]).to(dtype=st_dtype)
    r = a.index_put_([st.tensor(rows), st.tensor(cols)], vals)
    assert r is a
    want[rows, cols] = _np(vals)
    np.testing.assert_array_equal(_np(a), want)
    # The functional form copies; a non-contiguous self is written in place.
    b = st.tensor(base).to(dtype=st_dtype).t()
    c = st.index_put(b, [st.tensor([1])], st.ones(4, dtype=st_dtype))
    np.testing.assert_array_equal(_np(b), base.T.astype(_np(b).dtype))
    expected = base.T.copy()
    expected[1] = 1
    np.testing.assert_array_equal(_np(c), expected.astype(_np(c).dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "int64", "uint8", "complex128"])
def test_index_put_accumulate_matches_numpy_add_at(dtype):
    st_dtype = getattr(st, dtype)
    idx = np.array([0, 4, 0, 2, 4, 4])
    vals = np.arange(1, 7)
    a = st.zeros(5, 2, dtype=st_dtype)
    a.index_put_((st.tensor(idx),), st.tensor(vals).to(dtype=st_dtype).view(6, 1), accumulate=True)
    want = np.zeros((5, 2))
    np.add.at(want, idx, vals.reshape(6, 1))
    np.testing.assert_array_equal(_np(a), want.astype(_np(a).dtype))


def test_index_put_bool_accumulate_is_or_and_errors():
    a = st.tensor([False, True, False])
    a.index_put_([st.tensor([0, 0, 2])], st.tensor([True, False, False]), True)
    assert a.tolist() == [True, True, False]
    t = st.zeros(3)
    with pytest.raises(RuntimeError, match="dtypes match"):
        t.index_put_([st.tensor([0])], st.tensor([1.0], dtype=st.float64))
    with pytest.raises(RuntimeError, match="shape mismatch"):
        t.index_put_([st.tensor([0, 1])], st.tensor([1.0, 2.0, 3.0]))
    with pytest.raises(IndexError, match="out of bounds"):
        t[st.tensor([5])] = 1
    assert t.tolist() == [0.0, 0.0, 0.0]


def test_setitem_converts_values_to_the_tensor_dtype_as_pytorch():
    t = st.zeros(4, dtype=st.int32)
    t[st.tensor([1, 3])] = st.tensor([2.7, -1.2])  # float values into int32
    t[t == 0] = 9
    assert t.tolist() == [9, 2, 9, -1]
