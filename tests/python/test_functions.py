"""The generated functions, methods and submodules: schema-driven argument
binding and overload choice (python/src/ops.cpp, tools/codegen/gen_python.py)."""

import numpy as np
import pytest

import stabletorch as st
from stabletorch._ops_table import FUNCTIONS, METHODS, MODULES


def test_every_yaml_function_and_method_is_bound():
    for name in FUNCTIONS:
        assert callable(getattr(st, name)), name
    for name in METHODS:
        assert callable(getattr(st.Tensor, name)), name
    assert "vector_norm" in MODULES["linalg"] and callable(st.linalg.vector_norm)


def test_positional_keyword_and_defaults():
    a = st.tensor([1.0, 2.0])
    b = st.tensor([10.0, 20.0])
    assert st.add(a, b).tolist() == [11.0, 22.0]
    assert st.add(a, b, alpha=2).tolist() == [21.0, 42.0]
    assert st.add(self=a, other=b).tolist() == [11.0, 22.0]
    assert a.add(b, alpha=0.5).tolist() == [6.0, 12.0]
    assert st.sum(st.ones(2, 3), 1).tolist() == [3.0, 3.0]
    assert st.ones(2, 3).sum(dim=[0, 1], keepdim=True).shape == (1, 1)
    assert st.ones(2, 3).sum(dtype=st.float64).dtype is st.float64


def test_scalar_overload_is_chosen_for_numbers():
    a = st.tensor([1, 2])
    assert st.add(a, 3).tolist() == [4, 5]
    assert st.mul(a, 2.5).dtype is st.float32


def test_out_argument_is_written_and_returned():
    a = st.tensor([1.0, 2.0])
    out = st.empty(2)
    r = st.add(a, a, out=out)
    assert r is out and out.tolist() == [2.0, 4.0]


def test_in_place_methods_return_self():
    a = st.tensor([1.0, 2.0])
    assert a.add_(1) is a and a.tolist() == [2.0, 3.0]
    assert a.mul_(st.tensor([2.0, 2.0])) is a and a.tolist() == [4.0, 6.0]
    assert a.zero_() is a and a.tolist() == [0.0, 0.0]


def test_int_list_varargs_and_single_int_for_int_lists():
    t = st.arange(6)
    assert t.view(2, 3).shape == (2, 3)
    assert t.view((3, 2)).shape == (3, 2)
    assert t.view(2, 3).permute(1, 0).shape == (3, 2)
    assert t.reshape(3, -1).shape == (3, 2)
    assert st.zeros(4).shape == (4,)
    assert t.view(2, 3).sum(0).tolist() == [3, 5, 7]


def test_dtype_and_device_arguments():
    t = st.ones(2, dtype=st.int32, device="cpu")
    assert t.dtype is st.int32
    assert t.to(st.float64).dtype is st.float64
    assert t.to(dtype=st.bfloat16).dtype is st.bfloat16
    assert t.float().dtype is st.float32 and t.long().dtype is st.int64
    assert st.zeros(2, dtype=float).dtype is st.float64
    assert t.to("cpu").device == st.device("cpu")
    assert t.to(st.device("cpu"), st.float16).dtype is st.float16
    assert t.to(st.ones(1, dtype=st.int8)).dtype is st.int8
    assert t.to(dtype=st.float64, copy=True).dtype is st.float64


def test_lists_of_tensors_and_tuple_returns():
    a, b = st.tensor([1, 2]), st.tensor([3])
    assert st.cat([a, b]).tolist() == [1, 2, 3]
    assert st.stack([a, a], 1).shape == (2, 2)
    values, indices = st.tensor([3.0, 1.0, 2.0]).sort()
    assert values.tolist() == [1.0, 2.0, 3.0] and indices.tolist() == [1, 2, 0]
    parts = st.arange(6).split(2)
    assert [p.tolist() for p in parts] == [[0, 1], [2, 3], [4, 5]]


def test_reductions_against_numpy():
    a = np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32)
    t = st.tensor(a)
    np.testing.assert_allclose(t.sum().item(), a.sum(), rtol=1e-5)
    np.testing.assert_allclose(t.mean(1).numpy(), a.mean(1), rtol=1e-5)
    np.testing.assert_allclose(t.amax(0).numpy(), a.max(0))
    np.testing.assert_allclose(st.linalg.vector_norm(t).item(), np.linalg.norm(a), rtol=1e-5)
    np.testing.assert_allclose(st.softmax(t, 1).numpy(), np.exp(a) / np.exp(a).sum(1, keepdims=True),
                               rtol=1e-5)


def test_bad_arguments_raise_type_error_listing_every_signature():
    with pytest.raises(TypeError) as e:
        st.add(st.tensor([1]), "x")
    msg = str(e.value)
    assert "add() received an invalid combination of arguments - got (Tensor, str)" in msg
    assert "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor" in msg
    assert "add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor" in msg
    assert "argument 'other' (position 2) must be Tensor, not str" in msg
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        st.neg(st.tensor([1]), bogus=1)
    with pytest.raises(TypeError, match="missing required argument"):
        st.cat()


def test_core_errors_become_runtime_error_with_the_core_message():
    with pytest.raises(RuntimeError, match="invalid for input of size 6"):
        st.arange(6).view(4, 2)
    with pytest.raises(RuntimeError):
        st.ones(2, 3) @ st.ones(2, 3)


def test_every_function_survives_bad_arguments():
    """Every generated function, called with a spread of wrong and right
    arguments, returns or raises a Python exception; none crashes."""
    candidates = [(), (st.ones(2, 3),), (st.ones(2, 3), st.ones(2, 3)), (st.ones(2, 3), 1),
                  (st.ones(2, 3), "x"), (st.tensor(1.5),), (st.ones(2, 3), [0]),
                  (st.ones(2, 3), None), (st.ones(2, 3, dtype=st.bool),), (st.ones(0),), (3,),
                  ((2, 3),), (st.ones(2, 3), st.ones(3)), (st.ones(2, 3), -7)]
    outcomes = set()
    for name in FUNCTIONS:
        for args in candidates:
            try:
                getattr(st, name)(*args)
                outcomes.add("ok")
            except (TypeError, RuntimeError, ValueError, IndexError) as e:
                outcomes.add(type(e).__name__)
    assert {"ok", "TypeError", "RuntimeError"} <= outcomes


def test_help_shows_the_schemas():
    import pydoc
    text = pydoc.render_doc(st.ops.aten.sum, renderer=pydoc.plaintext)
    assert "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False" in text
    assert "add.Scalar" in st.Tensor.add.__doc__
    assert "add.Scalar" in pydoc.render_doc(st.add, renderer=pydoc.plaintext)
    assert "add.Scalar" in pydoc.render_doc(st.ones(1).add, renderer=pydoc.plaintext)


def test_keyword_only_arguments_are_not_positional():
    a = st.tensor([1.0])
    with pytest.raises(TypeError, match="add.Tensor"):
        st.add(a, a, 2)  # alpha comes after '*' in add.Tensor
    assert st.add(a, 1, 2).tolist() == [3.0]  # add.Scalar's alpha is positional
