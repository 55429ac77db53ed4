#include <st/core/from_blob.h>

#include <st/core/checked_arithmetic.h>
#include <st/core/error.h>
#include <st/core/storage.h>
#include <st/core/tensor_impl.h>

namespace st {
namespace detail {

namespace {

Tensor wrap(Storage storage, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
            ScalarType dtype, Device device) {
  auto impl = make_intrusive<TensorImpl>(std::move(storage), dtype, device);
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  return Tensor(std::move(impl));
}

}  // namespace

size_t dtype_alignment(ScalarType dtype) {
  switch (dtype) {
#define ST_ALIGN_CASE_(cpp_type, name) \
  case ScalarType::name:               \
    return alignof(cpp_type);
    AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS(ST_ALIGN_CASE_)
#undef ST_ALIGN_CASE_
    default:
      break;
  }
  ST_ERROR("dtype_alignment: expected a concrete dtype, got ", torch::headeronly::toString(dtype));
}

size_t check_blob(const char* op, const void* data, IntArrayRef sizes, IntArrayRef strides,
                  int64_t storage_offset, ScalarType dtype) {
  const size_t alignment = dtype_alignment(dtype);
  // Every element sits a whole number of elements past `data`, and the
  // element size is a multiple of the alignment: checking data suffices.
  ST_CHECK(reinterpret_cast<uintptr_t>(data) % alignment == 0, op, ": data pointer ", data,
           " is not aligned to the ", alignment, "-byte alignment of ",
           torch::headeronly::toString(dtype),
           " elements; pass memory aligned for the dtype (or copy it into a tensor)");
  return checked_storage_nbytes(sizes, strides, torch::headeronly::elementSize(dtype),
                                storage_offset, op);
}

Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                 ScalarType dtype, Device device) {
  const size_t nbytes = check_blob("from_blob", data, sizes, strides, storage_offset, dtype);
  return wrap(Storage::from_blob(data, nbytes, device), sizes, strides, storage_offset, dtype,
              device);
}

Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                 ScalarType dtype, Device device, void* context, DeleterFn deleter) {
  const size_t nbytes = check_blob("from_blob", data, sizes, strides, storage_offset, dtype);
  return wrap(Storage::from_blob(data, nbytes, device, context, deleter), sizes, strides,
              storage_offset, dtype, device);
}

}  // namespace detail
}  // namespace st
