"""NumPy and DLPack exchange without copies (python/src/interop.cpp)."""

import numpy as np
import pytest

import stabletorch as st


@pytest.mark.parametrize("np_dtype,dtype", [(np.float32, st.float32), (np.float64, st.float64),
                                            (np.int8, st.int8), (np.int32, st.int32),
                                            (np.int64, st.int64), (np.uint8, st.uint8),
                                            (np.bool_, st.bool), (np.float16, st.float16),
                                            (np.complex64, st.complex64)])
def test_from_numpy_shares_memory(np_dtype, dtype):
    a = np.arange(6).astype(np_dtype).reshape(2, 3)
    t = st.from_numpy(a)
    assert t.dtype is dtype and t.shape == (2, 3)
    assert t.data_ptr() == a.ctypes.data
    back = t.numpy()
    assert np.shares_memory(back, a)
    np.testing.assert_array_equal(back, a)


def test_writes_are_seen_both_ways():
    a = np.zeros(4, dtype=np.float32)
    t = st.from_numpy(a)
    t += 1
    assert a.tolist() == [1.0] * 4
    a[0] = 7
    assert t[0].item() == 7.0
    n = t.numpy()
    n[1] = 5
    assert t.tolist()[1] == 5.0


def test_non_contiguous_arrays_keep_their_strides():
    a = np.arange(20, dtype=np.float64).reshape(4, 5)[:, 1::2]
    t = st.from_numpy(a)
    assert t.stride() == (5, 2) and not t.is_contiguous()
    np.testing.assert_array_equal(t.numpy(), a)
    np.testing.assert_array_equal(st.from_numpy(a.T).numpy(), a.T)
    with pytest.raises(ValueError, match="negative strides"):
        st.from_numpy(a[::-1])


def test_array_protocol_and_views_out():
    t = st.arange(6).view(2, 3).t()
    np.testing.assert_array_equal(np.asarray(t), np.arange(6).reshape(2, 3).T)
    assert np.array(st.tensor(2.5)).shape == ()
    with pytest.raises(TypeError):
        st.ones(2, dtype=st.bfloat16).numpy()
    with pytest.raises(TypeError):
        st.from_numpy([1, 2])


def test_memory_outlives_the_other_side():
    a = np.arange(5, dtype=np.int64)
    t = st.from_numpy(a)
    del a
    assert t.tolist() == [0, 1, 2, 3, 4]
    n = st.arange(3).numpy()  # the tensor object is gone; its storage is not
    assert n.tolist() == [0, 1, 2]


def test_dlpack_round_trip():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = st.from_dlpack(a)
    assert t.data_ptr() == a.ctypes.data
    assert t.__dlpack_device__() == (1, 0)
    b = np.from_dlpack(t)
    assert np.shares_memory(a, b)
    u = st.from_dlpack(t)
    assert u.data_ptr() == t.data_ptr() and u.tolist() == t.tolist()
    bf = st.from_dlpack(st.ones(2, dtype=st.bfloat16))
    assert bf.dtype is st.bfloat16


def test_read_only_empty_and_unsupported_arrays():
    ro = np.broadcast_to(np.arange(3.0), (2, 3))
    t = st.from_numpy(ro)
    assert t.stride() == (0, 1) and t.tolist() == [[0.0, 1.0, 2.0]] * 2
    e = st.from_numpy(np.zeros((0, 3)))
    assert e.shape == (0, 3) and e.stride() == (3, 1)
    with pytest.raises(TypeError, match="dtype <U1"):
        st.from_numpy(np.array(["a"]))
    with pytest.raises(TypeError, match="native byte order"):
        st.from_numpy(np.zeros(3, dtype=">f4"))
