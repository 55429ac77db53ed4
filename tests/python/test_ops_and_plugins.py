"""stabletorch.ops over registered operators, and plugins loaded through the
project's loader (stabletorch/ops.py, python/src/plugins.cpp)."""

import numpy as np
import pytest

import stabletorch as st


def test_aten_operators_by_namespace_and_overload():
    a = st.tensor([1.0, 2.0])
    assert st.ops.aten.add(a, a).tolist() == [2.0, 4.0]
    assert st.ops.aten.add.Tensor(a, a, alpha=2).tolist() == [3.0, 6.0]
    assert st.ops.aten.add.Scalar(a, 1).tolist() == [2.0, 3.0]
    assert st.ops.aten.neg.default(a).tolist() == [-1.0, -2.0]
    assert "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor" in st.ops.aten.add.__doc__
    with pytest.raises(AttributeError, match="no operator named 'aten::nope'"):
        st.ops.aten.nope


def test_sample_op_plugin(sample_op_path):
    plugin = st.ops.load_library(sample_op_path)
    ops, kernels = plugin.counts
    assert ops >= 8 and kernels >= 8
    assert "sample_op" in plugin.report
    x = st.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = st.ones(2, 3)
    r = st.ops.sample_op.scale_add_clamp(x, y, 0.5, min=-1.0, max=2.0)
    np.testing.assert_allclose(r.numpy(), np.clip(np.arange(6).reshape(2, 3) + 0.5, -1, 2))
    rn = st.ops.sample_op.row_normalize(st.tensor([[3.0, 4.0]], dtype=st.float64))
    assert rn.dtype is st.float64
    t = st.arange(3.0)
    assert st.ops.sample_op.scale_(t, 2.0) is t and t.tolist() == [0.0, 2.0, 4.0]
    mean, var = st.ops.sample_op.moments(st.arange(6.0).view(2, 3), [1])
    assert mean.shape == (2,)
    assert isinstance(st.ops.sample_op.describe(x, "x"), str)
    assert st.ops.sample_op.cast_to(x, st.float64, st.device("cpu")).dtype is st.float64
    assert "weighted_sum" in dir(st.ops.sample_op)
    with pytest.raises(TypeError, match="scale_add_clamp"):
        st.ops.sample_op.scale_add_clamp(x, "y")


def test_refused_plugins_raise_with_the_loaders_reason(tmp_path):
    with pytest.raises(RuntimeError, match="load_library"):
        st.ops.load_library(tmp_path / "missing.so")
    junk = tmp_path / "junk.so"
    junk.write_bytes(b"not an ELF file")
    with pytest.raises(RuntimeError, match="junk.so"):
        st.ops.load_library(junk)


def test_plugin_for_a_newer_abi_level_is_refused_before_it_runs(future_plugin_path):
    with pytest.raises(RuntimeError) as e:
        st.ops.load_library(future_plugin_path)
    assert "libfuture_plugin.so" in str(e.value) and "2.99" in str(e.value)


def test_unloading_drops_the_reference(sample_op_path):
    plugin = st.ops.load_library(sample_op_path)
    assert plugin.loaded and plugin in st.ops.loaded_libraries
    st.ops.unload_library(plugin)
    assert not plugin.loaded and plugin not in st.ops.loaded_libraries
    with pytest.raises(RuntimeError, match="has been unloaded"):
        plugin.report
    with pytest.raises(RuntimeError, match="has been unloaded"):
        plugin.unload()


def test_unloaded_plugin_operators_are_gone(sample_op_path):
    loaded_before = [p for p in st.ops.loaded_libraries if p.path == str(sample_op_path)]
    for p in loaded_before:
        st.ops.unload_library(p)
    with pytest.raises(AttributeError, match="no operator named 'sample_op::row_normalize'"):
        st.ops.sample_op.row_normalize
    st.ops.load_library(sample_op_path)
    assert st.ops.sample_op.row_normalize(st.ones(1, 2)).shape == (1, 2)
