# The native-function tests (issue 5), listed relative to tests/core/ for the
# test_core executable: include(native/native_tests.cmake) and add
# ${STABLETORCH_CORE_NATIVE_TESTS} to its sources.
set(STABLETORCH_CORE_NATIVE_TESTS
  native/test_tensor_iterator.cpp
  native/test_factories.cpp
  native/test_conversions.cpp
  native/test_shape_ops.cpp
  native/test_binary_ops.cpp
  native/test_unary_ops.cpp
  native/test_compare_ops.cpp
  native/test_reduce_ops.cpp
  native/test_codegen_api.cpp
  native/test_property.cpp
)
