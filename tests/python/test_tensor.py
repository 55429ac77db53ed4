"""Tensor creation, metadata, conversions and printing (stabletorch/_C Tensor,
_factories.py)."""

import math

import numpy as np
import pytest

import stabletorch as st


def test_tensor_infers_dtype_like_pytorch():
    assert st.tensor([1, 2]).dtype is st.int64
    assert st.tensor([1.0, 2]).dtype is st.float32
    assert st.tensor([True, False]).dtype is st.bool
    assert st.tensor([1 + 2j]).dtype is st.complex64
    assert st.tensor(3).dtype is st.int64
    assert st.tensor(2.5).ndim == 0
    assert st.tensor([]).shape == (0,)
    assert st.tensor([[1, 2], [3, 4]], dtype=st.float64).dtype is st.float64


def test_tensor_rejects_ragged_and_unknown_data():
    with pytest.raises(ValueError):
        st.tensor([[1, 2], [3]])
    with pytest.raises(TypeError):
        st.tensor(["a"])


@pytest.mark.parametrize("dtype", [st.float32, st.float64, st.bfloat16, st.float16, st.int8,
                                   st.int16, st.int32, st.int64, st.uint8, st.bool])
def test_factories_and_metadata(dtype):
    z = st.zeros(2, 3, dtype=dtype)
    assert z.shape == (2, 3) and z.size() == st.Size([2, 3]) and z.size(1) == 3
    assert z.dtype is dtype and z.stride() == (3, 1) and z.storage_offset() == 0
    assert z.ndim == 2 and z.dim() == 2 and z.numel() == 6 and len(z) == 2
    assert z.is_contiguous() and z.device == st.device("cpu")
    assert z.tolist() == [[0, 0, 0], [0, 0, 0]]
    assert st.ones((2,), dtype=dtype).tolist() == [1, 1]
    assert st.full((2, 2), 1, dtype=dtype).tolist() == [[1, 1], [1, 1]]
    assert st.zeros_like(z).dtype is dtype and st.ones_like(z).shape == (2, 3)
    assert st.empty_like(z).shape == (2, 3) and st.empty(4, dtype=dtype).shape == (4,)
    assert st.full_like(z, 1).tolist() == [[1] * 3] * 2


NP_OF = {"float32": np.float32, "float64": np.float64, "float16": np.float16,
         "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
         "uint8": np.uint8, "complex64": np.complex64, "complex128": np.complex128}


@pytest.mark.parametrize("dtype", sorted(NP_OF))
@pytest.mark.parametrize("start,end,steps", [(0, 1, 5), (-3, 7, 11), (10, -10, 6), (2, 2, 3),
                                             (1, 100, 1), (0, 9, 0), (0, 50, 7)])
def test_linspace_matches_numpy(dtype, start, end, steps):
    if dtype == "uint8" and min(start, end) < 0:
        return
    st_dtype = getattr(st, dtype)
    got = st.linspace(start, end, steps, dtype=st_dtype)
    assert got.dtype is st_dtype and got.shape == (steps,)
    npt = NP_OF[dtype]
    if np.issubdtype(npt, np.integer):
        # PyTorch (and so stabletorch) truncates the double values.
        want = np.trunc(np.linspace(start, end, steps)).astype(npt)
        np.testing.assert_array_equal(got.numpy(), want)
    else:
        want = np.linspace(start, end, steps).astype(npt)
        tol = 1e-3 if dtype == "float16" else 1e-6
        np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)
    if steps > 1:
        assert got[0].item() == start and got[-1].item() == end  # both ends exact


def test_linspace_defaults_out_and_errors():
    assert st.linspace(0, 1, 3).dtype is st.float32
    c = st.linspace(0, 2 + 4j, 3)
    assert c.dtype is st.complex64 and c.tolist() == [0j, 1 + 2j, 2 + 4j]
    out = st.empty(0, dtype=st.float64)
    assert st.linspace(1, 2, 3, out=out) is out
    assert out.tolist() == [1.0, 1.5, 2.0]
    with pytest.raises(RuntimeError, match="number of steps must be non-negative"):
        st.linspace(0, 1, -1)
    with pytest.raises(RuntimeError, match="not implemented for 'Bool'"):
        st.linspace(0, 1, 2, dtype=st.bool)
    with pytest.raises(RuntimeError, match="can't be safely cast to passed dtype"):
        st.linspace(0, 1j, 2, dtype=st.float32)


@pytest.mark.parametrize("dtype", sorted(NP_OF) + ["bool", "bfloat16"])
@pytest.mark.parametrize("shape", [(3,), (2, 5), (4, 1), (0,), (3, 0)])
def test_eye_matches_numpy(dtype, shape):
    st_dtype = getattr(st, dtype)
    got = st.eye(*shape, dtype=st_dtype)
    assert got.dtype is st_dtype
    want = np.eye(*shape)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.to(dtype=st.float64).numpy(), want)


def test_eye_out_and_errors():
    assert st.eye(2).dtype is st.float32
    out = st.full([2, 2], 5.0).t()
    assert st.eye(2, out=out) is out and out.tolist() == [[1.0, 0.0], [0.0, 1.0]]
    with pytest.raises(RuntimeError, match="n must be greater or equal to 0, got -1"):
        st.eye(-1)
    with pytest.raises(RuntimeError, match="m must be greater or equal to 0, got -2"):
        st.eye(3, -2)


def test_arange_linspace_eye_random():
    assert st.arange(5).tolist() == [0, 1, 2, 3, 4]
    assert st.arange(1, 2, 0.25).tolist() == [1.0, 1.25, 1.5, 1.75]
    np.testing.assert_allclose(st.linspace(0, 1, 5).numpy(), np.linspace(0, 1, 5, dtype=np.float32))
    assert st.linspace(-1, 1, 7).tolist()[-1] == 1.0
    np.testing.assert_array_equal(st.eye(3).numpy(), np.eye(3, dtype=np.float32))
    np.testing.assert_array_equal(st.eye(2, 3, dtype=st.int64).numpy(), np.eye(2, 3, dtype=np.int64))
    st.manual_seed(7)
    a = st.rand(100)
    st.manual_seed(7)
    assert st.rand(100).tolist() == a.tolist()
    assert 0 <= a.min().item() and a.max().item() < 1
    assert st.randn(3, 4).shape == (3, 4)
    r = st.randint(0, 5, (50,))
    assert r.dtype is st.int64 and 0 <= r.min().item() and r.max().item() < 5


def test_item_and_python_number_conversions():
    assert st.tensor(3).item() == 3 and isinstance(st.tensor(3).item(), int)
    assert st.tensor(2.5).item() == 2.5
    assert st.tensor(True).item() is True
    assert float(st.tensor([1.5])) == 1.5 and int(st.tensor(7)) == 7
    assert bool(st.tensor([1])) and not bool(st.tensor(0.0))
    assert [1, 2, 3][st.tensor(1)] == 2
    with pytest.raises(RuntimeError, match="ambiguous"):
        bool(st.tensor([1, 2]))
    with pytest.raises(ValueError):
        st.tensor([1, 2]).item()
    with pytest.raises(TypeError):
        len(st.tensor(1))


def test_iteration_yields_rows():
    rows = list(st.tensor([[1, 2], [3, 4]]))
    assert [r.tolist() for r in rows] == [[1, 2], [3, 4]]
    with pytest.raises(TypeError):
        iter(st.tensor(1)).__next__()


def test_repr_matches_pytorch_format():
    assert repr(st.tensor([[1.0, 2.0], [3.0, 4.0]])) == "tensor([[1., 2.],\n        [3., 4.]])"
    assert repr(st.tensor([1, 2, 3], dtype=st.int32)) == "tensor([1, 2, 3], dtype=stabletorch.int32)"
    assert str(st.tensor(2.5)) == "tensor(2.5000)"
    assert repr(st.arange(1000.0, 3000.0)) == "tensor([1000., 1001., 1002.,  ..., 2997., 2998., 2999.])"


def test_dtype_and_device_objects():
    assert repr(st.float32) == "stabletorch.float32"
    assert st.float is st.float32 and st.long is st.int64
    assert st.float32.is_floating_point and not st.int32.is_floating_point
    assert st.bfloat16.itemsize == 2
    assert repr(st.device("cpu")) == "device(type='cpu')"
    d = st.device("cuda", 0)
    assert d.type == "cuda" and d.index == 0 and str(d) == "cuda:0"
    assert st.device("cuda:1") == st.device("cuda", 1)
    with pytest.raises(RuntimeError):
        st.device("nonsense")


def test_non_contiguous_and_zero_dim_metadata():
    t = st.arange(12).view(3, 4).t()
    assert t.shape == (4, 3) and t.stride() == (1, 4) and not t.is_contiguous()
    assert t.tolist() == np.arange(12).reshape(3, 4).T.tolist()
    s = st.tensor(5.0)
    assert s.shape == () and s.ndim == 0 and s.numel() == 1 and s.stride() == ()
    assert math.isclose(s.item(), 5.0)


def test_pickle_and_deepcopy_copy_by_value():
    import copy
    import pickle
    for t in (st.arange(6).view(2, 3).t(), st.tensor(2.5, dtype=st.bfloat16), st.zeros(0, 2)):
        u = pickle.loads(pickle.dumps(t))
        assert u.dtype is t.dtype and u.shape == t.shape and u.tolist() == t.tolist()
        d = copy.deepcopy(t)
        assert d.tolist() == t.tolist() and not d._is_alias_of(t)
    assert pickle.loads(pickle.dumps(st.float16)) is st.float16
