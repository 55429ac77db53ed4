"""pytest setup for the Python package: the package under test is the one on
PYTHONPATH (the build tree's python/ directory; tools/test.sh sets it)."""

import gc
import pathlib

import pytest

import stabletorch as st


@pytest.fixture
def sample_op_path():
    """The sample_op plugin the build makes beside the package (python/CMakeLists.txt)."""
    path = pathlib.Path(st.__file__).resolve().parent.parent / "test_plugins" / "libsample_op.so"
    if not path.exists():
        pytest.fail("sample_op plugin not built: %s (build target python_test_sample_op)" % path)
    return path


@pytest.fixture
def no_leaks():
    """Asserts that the test leaves no more live tensors than it found."""
    gc.collect()
    before = st.live_tensor_count()
    yield
    gc.collect()
    # Not ==: a tensor held by an earlier test's traceback may go meanwhile.
    assert st.live_tensor_count() <= before
