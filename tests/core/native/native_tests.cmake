# The native-function tests, listed relative to tests/core/ for the
# test_core executable: include(native/native_tests.cmake) and add
# ${STABLETORCH_CORE_NATIVE_TESTS} to its sources.
set(STABLETORCH_CORE_NATIVE_TESTS
  native/test_tensor_iterator.cpp
  native/test_loops.cpp
  native/test_broadcast.cpp
  native/test_dense_layout.cpp
  native/test_dtype_conversion.cpp
  native/test_memory_overlap.cpp
  native/test_resize.cpp
  native/test_scalar_tensor.cpp
  native/test_factories.cpp
  native/test_random_ops.cpp
  native/test_arange_length.cpp
  native/test_conversions.cpp
  native/test_copy_kernel.cpp
  native/test_shape_ops.cpp
  native/test_view_ops.cpp
  native/test_binary_ops.cpp
  native/test_unary_ops.cpp
  native/test_compare_ops.cpp
  native/test_reduce_ops.cpp
  native/test_reduction.cpp
  native/test_row_offsets.cpp
  native/test_codegen_api.cpp
  native/test_property.cpp
  native/test_linear_algebra.cpp
  native/test_gemm.cpp
  native/test_join_split.cpp
  native/test_indexing.cpp
  native/test_sorting.cpp
  native/test_softmax.cpp
  native/test_foreach.cpp
  native/cpu/test_vec_kernels.cpp
  native/cpu/test_vec_reduce_kernels.cpp
  native/cpu/test_fast_paths.cpp
  native/cpu/test_vec_math.cpp
)

# The tests of the vectorized loops check every ISA variant the CPU
# supports, so they compile the variants themselves with the library's
# flags (they are internal symbols of the shared library).
include(StableTorchVecVariants)
stabletorch_vec_variants(_st_vec_variants)
list(APPEND STABLETORCH_CORE_NATIVE_TESTS
  ${PROJECT_SOURCE_DIR}/core/src/native/cpu/vec_dispatch.cpp
  ${PROJECT_SOURCE_DIR}/core/src/native/cpu/vec_math_dispatch.cpp
  ${PROJECT_SOURCE_DIR}/core/src/native/cpu/vec_reduce_dispatch.cpp
  ${_st_vec_variants})
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/cpu/test_vec_math.cpp
  PROPERTIES INCLUDE_DIRECTORIES ${PROJECT_SOURCE_DIR}/core/src)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/cpu/test_vec_kernels.cpp
  PROPERTIES INCLUDE_DIRECTORIES ${PROJECT_SOURCE_DIR}/core/src)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/cpu/test_vec_reduce_kernels.cpp
  PROPERTIES INCLUDE_DIRECTORIES ${PROJECT_SOURCE_DIR}/core/src)
