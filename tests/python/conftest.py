"""pytest setup for the Python package: the package under test is the one on
PYTHONPATH (the build tree's python/ directory; tools/test.sh sets it)."""

import gc
import pathlib

import pytest

import stabletorch as st


def _test_plugin(name):
    """A plugin the build makes beside the package (python/CMakeLists.txt)."""
    path = pathlib.Path(st.__file__).resolve().parent.parent / "test_plugins" / name
    if not path.exists():
        pytest.fail("test plugin not built: %s (targets python_test_*)" % path)
    return path


@pytest.fixture
def sample_op_path():
    return _test_plugin("libsample_op.so")


@pytest.fixture
def pyobject_plugin_path():
    """Converts Python objects with torch/csrc/stable/pyobject.h (2.15)."""
    return _test_plugin("libpyobject_plugin.so")


@pytest.fixture
def future_plugin_path():
    """Targets ABI level 2.99 and aborts if any of its code runs."""
    return _test_plugin("libfuture_plugin.so")


@pytest.fixture
def no_leaks():
    """Asserts that the test leaves no more live tensors than it found."""
    gc.collect()
    before = st.live_tensor_count()
    yield
    gc.collect()
    # Not ==: a tensor held by an earlier test's traceback may go meanwhile.
    assert st.live_tensor_count() <= before
