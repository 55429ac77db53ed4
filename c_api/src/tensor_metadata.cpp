// Metadata getters of a tensor handle. Every getter except is_defined and
// has_storage fails on an undefined tensor; dims are wrapped and range-checked as in
// PyTorch.
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>
#include <torch/headeronly/core/Layout.h>

#include "error_state.h"
#include "handle_types.h"

using stc::check_out;
using stc::defined_tensor_of;

namespace {

int64_t storage_nbytes(const st::TensorImpl& t) noexcept {
  return t.has_storage() ? static_cast<int64_t>(t.storage().nbytes()) : 0;
}

// Note [Getter fast paths]
// A getter reads a field or two; the checks it must make (a live tensor
// handle, a defined tensor, a non-null out-pointer) should not cost more
// than the read. So each getter first tries a path with nothing else: the
// handle's check (live_slot: a range check and one compare, Note
// [Validated handles] in handle_registry.h), a null test of the tensor and
// of the out-pointer, no call and no frame. Anything else (an error) takes
// the full path, which makes every check again and reports what was wrong
// under the exported function's name. `read` must not throw.

// The defined tensor of `tensor`, or null for anything the fast path does
// not take.
inline __attribute__((always_inline)) const st::TensorImpl* defined_impl_fast(
    AtenTensorHandle tensor) noexcept {
  stc::Slot* s = stc::live_slot(tensor, stc::HandleKind::Tensor);
  return s != nullptr ? stc::payload<st::Tensor>(s).unsafeGetTensorImpl() : nullptr;
}

template <typename T, typename Read>
__attribute__((noinline)) AOTITorchError read_tensor_checked(AtenTensorHandle tensor, T* out,
                                                             const char* function,
                                                             const char* out_name,
                                                             Read read) noexcept {
  STC_API_BEGIN
  check_out(out, out_name);
  *out = read(*defined_tensor_of(tensor, "tensor").unsafeGetTensorImpl());
  STC_API_END_AS(function)
}

// *out = read(the tensor of `tensor`), checked (Note [Getter fast paths]).
template <typename T, typename Read>
inline __attribute__((always_inline)) AOTITorchError read_tensor(AtenTensorHandle tensor, T* out,
                                                                 const char* function,
                                                                 const char* out_name,
                                                                 Read read) noexcept {
  const st::TensorImpl* impl = defined_impl_fast(tensor);
  if (__builtin_expect(impl != nullptr && out != nullptr, 1)) {
    *out = read(*impl);
    return AOTI_TORCH_SUCCESS;
  }
  return read_tensor_checked(tensor, out, function, out_name, read);
}

// The size or stride of dim `d` (wrapped): the fast path takes dims in
// range, the full path reports the others as TensorImpl::size does.
template <bool kStride>
__attribute__((noinline)) AOTITorchError read_dim_checked(AtenTensorHandle tensor, int64_t d,
                                                          int64_t* out, const char* function,
                                                          const char* out_name) noexcept {
  STC_API_BEGIN
  check_out(out, out_name);
  const st::TensorImpl& t = *defined_tensor_of(tensor, "tensor").unsafeGetTensorImpl();
  *out = kStride ? t.stride(d) : t.size(d);
  STC_API_END_AS(function)
}

template <bool kStride>
inline __attribute__((always_inline)) AOTITorchError read_dim(AtenTensorHandle tensor, int64_t d,
                                                              int64_t* out, const char* function,
                                                              const char* out_name) noexcept {
  const st::TensorImpl* impl = defined_impl_fast(tensor);
  if (__builtin_expect(impl != nullptr && out != nullptr, 1)) {
    const int64_t dim = impl->dim();
    const int64_t wrapped = d < 0 ? d + dim : d;
    if (__builtin_expect(static_cast<uint64_t>(wrapped) < static_cast<uint64_t>(dim), 1)) {
      *out = kStride ? impl->strides()[wrapped] : impl->sizes()[wrapped];
      return AOTI_TORCH_SUCCESS;
    }
  }
  return read_dim_checked<kStride>(tensor, d, out, function, out_name);
}

}  // namespace

extern "C" {

AOTITorchError aoti_torch_get_data_ptr(AtenTensorHandle tensor, void** ret_data_ptr) {
  return read_tensor(tensor, ret_data_ptr, __func__, "ret_data_ptr",
                     [](const st::TensorImpl& t) noexcept { return t.mutable_data(); });
}

AOTITorchError aoti_torch_get_mutable_data_ptr(AtenTensorHandle tensor, void** ret_data_ptr) {
  return read_tensor(tensor, ret_data_ptr, __func__, "ret_data_ptr",
                     [](const st::TensorImpl& t) noexcept { return t.mutable_data(); });
}

AOTITorchError aoti_torch_get_const_data_ptr(AtenTensorHandle tensor, const void** ret_data_ptr) {
  return read_tensor(tensor, ret_data_ptr, __func__, "ret_data_ptr",
                     [](const st::TensorImpl& t) noexcept { return t.data(); });
}

AOTITorchError torch_get_mutable_data_ptr(AtenTensorHandle tensor, void** ret_data_ptr) {
  return read_tensor(tensor, ret_data_ptr, __func__, "ret_data_ptr",
                     [](const st::TensorImpl& t) noexcept { return t.mutable_data(); });
}

AOTITorchError torch_get_const_data_ptr(AtenTensorHandle tensor, const void** ret_data_ptr) {
  return read_tensor(tensor, ret_data_ptr, __func__, "ret_data_ptr",
                     [](const st::TensorImpl& t) noexcept { return t.data(); });
}

AOTITorchError aoti_torch_get_storage_size(AtenTensorHandle tensor, int64_t* ret_size) {
  return read_tensor(tensor, ret_size, __func__, "ret_size",
                     [](const st::TensorImpl& t) noexcept { return storage_nbytes(t); });
}

// Unlike the getters around it, defined for an undefined tensor (false),
// as PyTorch's.
AOTITorchError torch_has_storage(AtenTensorHandle tensor, bool* ret_has_storage) {
  STC_API_BEGIN
  check_out(ret_has_storage, "ret_has_storage");
  const st::Tensor& t = stc::tensor_of(tensor, "tensor");
  *ret_has_storage = t.defined() && t.has_storage();
  STC_API_END
}

AOTITorchError aoti_torch_get_dim(AtenTensorHandle tensor, int64_t* ret_dim) {
  return read_tensor(tensor, ret_dim, __func__, "ret_dim",
                     [](const st::TensorImpl& t) noexcept { return t.dim(); });
}

AOTITorchError aoti_torch_get_numel(AtenTensorHandle tensor, int64_t* ret_numel) {
  return read_tensor(tensor, ret_numel, __func__, "ret_numel",
                     [](const st::TensorImpl& t) noexcept { return t.numel(); });
}

AOTITorchError aoti_torch_get_storage_numel(AtenTensorHandle tensor, int64_t* ret_numel) {
  return read_tensor(tensor, ret_numel, __func__, "ret_numel",
                     [](const st::TensorImpl& t) noexcept {
                       return storage_nbytes(t) / static_cast<int64_t>(t.itemsize());
                     });
}

// The sizes and strides are borrowed: the C signatures are PyTorch's
// (non-const) ones; callers must not write through them.
AOTITorchError aoti_torch_get_sizes(AtenTensorHandle tensor, int64_t** ret_sizes) {
  return read_tensor(
      tensor, ret_sizes, __func__, "ret_sizes",
      [](const st::TensorImpl& t) noexcept { return const_cast<int64_t*>(t.sizes().data()); });
}

AOTITorchError aoti_torch_get_size(AtenTensorHandle tensor, int64_t d, int64_t* ret_size) {
  return read_dim<false>(tensor, d, ret_size, __func__, "ret_size");
}

AOTITorchError aoti_torch_get_strides(AtenTensorHandle tensor, int64_t** ret_strides) {
  return read_tensor(
      tensor, ret_strides, __func__, "ret_strides",
      [](const st::TensorImpl& t) noexcept { return const_cast<int64_t*>(t.strides().data()); });
}

AOTITorchError aoti_torch_get_stride(AtenTensorHandle tensor, int64_t d, int64_t* ret_stride) {
  return read_dim<true>(tensor, d, ret_stride, __func__, "ret_stride");
}

AOTITorchError aoti_torch_get_dtype(AtenTensorHandle tensor, int32_t* ret_dtype) {
  return read_tensor(
      tensor, ret_dtype, __func__, "ret_dtype",
      [](const st::TensorImpl& t) noexcept { return static_cast<int32_t>(t.dtype()); });
}

AOTITorchError aoti_torch_get_device_type(AtenTensorHandle tensor, int32_t* ret_device_type) {
  return read_tensor(
      tensor, ret_device_type, __func__, "ret_device_type",
      [](const st::TensorImpl& t) noexcept { return static_cast<int32_t>(t.device().type()); });
}

AOTITorchError aoti_torch_get_device_index(AtenTensorHandle tensor, int32_t* ret_device_index) {
  return read_tensor(
      tensor, ret_device_index, __func__, "ret_device_index",
      [](const st::TensorImpl& t) noexcept { return static_cast<int32_t>(t.device().index()); });
}

AOTITorchError aoti_torch_get_layout(AtenTensorHandle tensor, int32_t* ret_layout) {
  // The core has strided tensors only.
  return read_tensor(tensor, ret_layout, __func__, "ret_layout",
                     [](const st::TensorImpl&) noexcept {
                       return static_cast<int32_t>(torch::headeronly::Layout::Strided);
                     });
}

AOTITorchError aoti_torch_get_storage_offset(AtenTensorHandle tensor, int64_t* ret_storage_offset) {
  return read_tensor(tensor, ret_storage_offset, __func__, "ret_storage_offset",
                     [](const st::TensorImpl& t) noexcept { return t.storage_offset(); });
}

AOTITorchError aoti_torch_is_contiguous(AtenTensorHandle tensor, bool* ret_is_contiguous) {
  STC_API_BEGIN
  check_out(ret_is_contiguous, "ret_is_contiguous");
  *ret_is_contiguous = defined_tensor_of(tensor, "tensor").is_contiguous();
  STC_API_END
}

AOTITorchError aoti_torch_is_defined(AtenTensorHandle tensor, bool* ret_is_defined) {
  STC_API_BEGIN
  check_out(ret_is_defined, "ret_is_defined");
  *ret_is_defined = stc::tensor_of(tensor, "tensor").defined();
  STC_API_END
}

AOTITorchError torch_set_requires_grad(AtenTensorHandle tensor, bool requires_grad) {
  STC_API_BEGIN(void) defined_tensor_of(tensor, "tensor");
  ST_CHECK(!requires_grad,
           "requires_grad=True is not supported: this core has no autograd (only "
           "requires_grad=False is accepted)");
  STC_API_END
}

}  // extern "C"
