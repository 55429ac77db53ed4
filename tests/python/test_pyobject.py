"""The C ABI's torch_*_pyobject functions with the stabletorch module
imported (its converters registered), called the way a plugin calls them:
through libstabletorch.so, with the GIL held (ctypes.PyDLL), and from a
plugin built with torch/csrc/stable/pyobject.h. Ownership is checked with
Python reference counts and the core's live-tensor counter.
tests/c_api/test_pyobject.cpp covers the same functions without Python."""

import ctypes
import gc
import os
import sys

import pytest

import stabletorch as st

c_void_pp = ctypes.POINTER(ctypes.c_void_p)


def _runtime_path():
    """The libstabletorch.so this process loaded with stabletorch._C."""
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            if os.path.basename(path).startswith("libstabletorch.so"):
                return path
    pytest.fail("libstabletorch.so is not loaded")


def _declare(lib):
    sig = {
        "torch_tensor_from_pyobject": [ctypes.py_object, c_void_pp],
        "torch_tensor_to_pyobject": [ctypes.c_void_p, ctypes.c_void_p, c_void_pp],
        "torch_is_tensor_pyobject": [ctypes.py_object, ctypes.POINTER(ctypes.c_bool)],
        "torch_dtype_from_pyobject": [ctypes.py_object, ctypes.POINTER(ctypes.c_int32)],
        "torch_dtype_to_pyobject": [ctypes.c_int32, c_void_pp],
        "torch_device_from_pyobject": [ctypes.py_object, ctypes.POINTER(ctypes.c_int32),
                                       ctypes.POINTER(ctypes.c_int32)],
        "torch_device_to_pyobject": [ctypes.c_int32, ctypes.c_int32, c_void_pp],
        "aoti_torch_delete_tensor_object": [ctypes.c_void_p],
    }
    for name, args in sig.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = ctypes.c_int32
    lib.torch_exception_get_what_without_backtrace.restype = ctypes.c_char_p
    lib.torch_exception_get_what_without_backtrace.argtypes = []
    for name in ("aoti_torch_dtype_bfloat16", "aoti_torch_dtype_int32",
                 "aoti_torch_device_type_cpu", "aoti_torch_device_type_cuda"):
        getattr(lib, name).restype = ctypes.c_int32
        getattr(lib, name).argtypes = []
    return lib


@pytest.fixture(scope="module")
def shim():
    """Calls keep the GIL, as the functions require."""
    return _declare(ctypes.PyDLL(_runtime_path()))


def _ok(shim, rc):
    assert rc == 0, shim.torch_exception_get_what_without_backtrace().decode()


def _fails(shim, rc, *needles):
    assert rc != 0
    msg = shim.torch_exception_get_what_without_backtrace().decode()
    for n in needles:
        assert n in msg, msg
    return msg


def _steal(ptr):
    """The Python object of a new reference the C ABI returned (the
    reference is handed over: the ctypes object took one of its own)."""
    obj = ctypes.cast(ptr, ctypes.py_object).value
    ctypes.pythonapi.Py_DecRef(ctypes.py_object(obj))
    return obj


def test_tensor_round_trip_shares_the_tensor(shim, no_leaks):
    t = st.arange(6.0).view(2, 3)
    refs = sys.getrefcount(t)
    h = ctypes.c_void_p()
    _ok(shim, shim.torch_tensor_from_pyobject(t, ctypes.byref(h)))
    assert sys.getrefcount(t) == refs  # py_obj is borrowed
    out = ctypes.c_void_p()
    _ok(shim, shim.torch_tensor_to_pyobject(h, None, ctypes.byref(out)))
    u = _steal(out)
    assert type(u) is st.Tensor and u is not t
    assert sys.getrefcount(u) == 2  # u and getrefcount's argument: nothing leaked
    assert u.data_ptr() == t.data_ptr() and u.shape == (2, 3)
    u[0, 0] = 42
    assert t[0, 0].item() == 42
    _ok(shim, shim.aoti_torch_delete_tensor_object(h))


def test_the_handle_owns_a_reference(shim):
    gc.collect()
    before = st.live_tensor_count()
    t = st.ones(4)
    h = ctypes.c_void_p()
    _ok(shim, shim.torch_tensor_from_pyobject(t, ctypes.byref(h)))
    del t
    gc.collect()
    assert st.live_tensor_count() == before + 1  # alive through the handle
    out = ctypes.c_void_p()
    _ok(shim, shim.torch_tensor_to_pyobject(h, None, ctypes.byref(out)))
    _ok(shim, shim.aoti_torch_delete_tensor_object(h))
    u = _steal(out)
    assert u.tolist() == [1.0, 1.0, 1.0, 1.0]  # alive through the new object
    del u
    gc.collect()
    assert st.live_tensor_count() == before


def test_subclass_as_result_type_and_is_tensor(shim, no_leaks):
    class MyTensor(st.Tensor):
        pass

    t = st.zeros(2)
    h = ctypes.c_void_p()
    _ok(shim, shim.torch_tensor_from_pyobject(t, ctypes.byref(h)))
    out = ctypes.c_void_p()
    _ok(shim, shim.torch_tensor_to_pyobject(h, id(MyTensor), ctypes.byref(out)))
    m = _steal(out)
    assert type(m) is MyTensor and m.data_ptr() == t.data_ptr()
    assert (m + 1).tolist() == [1.0, 1.0]
    # A subclass instance converts back.
    h2 = ctypes.c_void_p()
    _ok(shim, shim.torch_tensor_from_pyobject(m, ctypes.byref(h2)))
    is_t = ctypes.c_bool(False)
    for obj, want in ((t, True), (m, True), (5, False), ("x", False), (st.float32, False)):
        _ok(shim, shim.torch_is_tensor_pyobject(obj, ctypes.byref(is_t)))
        assert is_t.value is want
    _fails(shim, shim.torch_tensor_to_pyobject(h, id(int), ctypes.byref(out)),
           "torch_tensor_to_pyobject", "py_type: expected stabletorch.Tensor or a subclass",
           "'int'")
    _fails(shim, shim.torch_tensor_to_pyobject(h, id("x"), ctypes.byref(out)),
           "an object of type 'str'")
    for handle in (h, h2):
        _ok(shim, shim.aoti_torch_delete_tensor_object(handle))
    del m
    gc.collect()


def test_dtype_round_trip_gives_the_unique_dtype_objects(shim):
    code = ctypes.c_int32(-1)
    _ok(shim, shim.torch_dtype_from_pyobject(st.bfloat16, ctypes.byref(code)))
    assert code.value == shim.aoti_torch_dtype_bfloat16()
    int32 = st.int32
    refs = sys.getrefcount(int32)
    out = ctypes.c_void_p()
    _ok(shim, shim.torch_dtype_to_pyobject(shim.aoti_torch_dtype_int32(), ctypes.byref(out)))
    d = _steal(out)
    same = d is int32
    del d
    after = sys.getrefcount(int32)  # read outside assert: pytest's rewriting keeps references
    assert same and after == refs
    _fails(shim, shim.torch_dtype_from_pyobject(float, ctypes.byref(code)),
           "torch_dtype_from_pyobject", "py_obj: expected a stabletorch.dtype", "'type'")
    _fails(shim, shim.torch_dtype_to_pyobject(12345, ctypes.byref(out)),
           "torch_dtype_to_pyobject", "unsupported dtype code 12345")


def test_device_round_trip(shim):
    kind, index = ctypes.c_int32(-5), ctypes.c_int32(-5)
    _ok(shim, shim.torch_device_from_pyobject(st.device("cuda", 1), ctypes.byref(kind),
                                              ctypes.byref(index)))
    assert (kind.value, index.value) == (shim.aoti_torch_device_type_cuda(), 1)
    _ok(shim, shim.torch_device_from_pyobject(st.device("cpu"), ctypes.byref(kind),
                                              ctypes.byref(index)))
    assert (kind.value, index.value) == (shim.aoti_torch_device_type_cpu(), -1)
    out = ctypes.c_void_p()
    _ok(shim, shim.torch_device_to_pyobject(shim.aoti_torch_device_type_cuda(), 0,
                                            ctypes.byref(out)))
    d = _steal(out)
    assert d == st.device("cuda:0") and sys.getrefcount(d) == 2
    _ok(shim, shim.torch_device_to_pyobject(shim.aoti_torch_device_type_cpu(), -1,
                                            ctypes.byref(out)))
    assert repr(_steal(out)) == "device(type='cpu')"
    _fails(shim, shim.torch_device_from_pyobject("cpu", ctypes.byref(kind), ctypes.byref(index)),
           "torch_device_from_pyobject", "py_obj: expected a stabletorch.device", "'str'")
    _fails(shim, shim.torch_device_to_pyobject(shim.aoti_torch_device_type_cuda(), 200,
                                               ctypes.byref(out)), "out of range")


def test_wrong_objects_fail_with_the_type_and_no_python_error_left(shim):
    h = ctypes.c_void_p()
    _fails(shim, shim.torch_tensor_from_pyobject([1, 2], ctypes.byref(h)),
           "torch_tensor_from_pyobject", "py_obj: expected a stabletorch.Tensor", "'list'")
    assert h.value is None
    assert sys.exc_info() == (None, None, None)


def test_without_the_gil_the_call_fails(shim):
    # ctypes.CDLL releases the GIL around the call: the converters refuse.
    unlocked = _declare(ctypes.CDLL(_runtime_path()))
    is_t = ctypes.c_bool(True)
    _fails(unlocked, unlocked.torch_is_tensor_pyobject(st.zeros(1), ctypes.byref(is_t)),
           "torch_is_tensor_pyobject", "must hold the GIL")
    assert is_t.value is True


def test_a_plugin_built_with_the_stable_header_converts_objects(pyobject_plugin_path, no_leaks):
    lib = ctypes.PyDLL(str(pyobject_plugin_path))
    for name in ("pyobject_plugin_tensor_round_trip", "pyobject_plugin_dtype_round_trip",
                 "pyobject_plugin_device_round_trip"):
        getattr(lib, name).argtypes = [ctypes.py_object]
        getattr(lib, name).restype = ctypes.c_void_p
    lib.pyobject_plugin_numel.argtypes = [ctypes.py_object]
    lib.pyobject_plugin_numel.restype = ctypes.c_int64
    t = st.arange(5.0)
    u = _steal(lib.pyobject_plugin_tensor_round_trip(t))
    assert type(u) is st.Tensor and u is not t and u.data_ptr() == t.data_ptr()
    assert sys.getrefcount(u) == 2
    assert lib.pyobject_plugin_numel(t) == 5
    assert lib.pyobject_plugin_numel("not a tensor") == -1
    assert lib.pyobject_plugin_tensor_round_trip(3) is None  # refused by is_tensor_pyobject
    d = _steal(lib.pyobject_plugin_dtype_round_trip(st.float16))
    assert d is st.float16
    dev = _steal(lib.pyobject_plugin_device_round_trip(st.device("cuda", 2)))
    assert dev == st.device("cuda:2")
    assert lib.pyobject_plugin_dtype_round_trip(st.device("cpu")) is None
    del u
