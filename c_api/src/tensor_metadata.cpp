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

int64_t storage_nbytes(const st::Tensor& t) {
  return t.has_storage() ? static_cast<int64_t>(t.storage().nbytes()) : 0;
}

}  // namespace

extern "C" {

AOTITorchError aoti_torch_get_data_ptr(AtenTensorHandle tensor, void** ret_data_ptr) {
  STC_API_BEGIN
  check_out(ret_data_ptr, "ret_data_ptr");
  *ret_data_ptr = defined_tensor_of(tensor, "tensor").data_ptr();
  STC_API_END
}

AOTITorchError aoti_torch_get_mutable_data_ptr(AtenTensorHandle tensor, void** ret_data_ptr) {
  STC_API_BEGIN
  check_out(ret_data_ptr, "ret_data_ptr");
  *ret_data_ptr = defined_tensor_of(tensor, "tensor").mutable_data_ptr();
  STC_API_END
}

AOTITorchError aoti_torch_get_const_data_ptr(AtenTensorHandle tensor,
                                             const void** ret_data_ptr) {
  STC_API_BEGIN
  check_out(ret_data_ptr, "ret_data_ptr");
  *ret_data_ptr = defined_tensor_of(tensor, "tensor").const_data_ptr();
  STC_API_END
}

AOTITorchError torch_get_mutable_data_ptr(AtenTensorHandle tensor, void** ret_data_ptr) {
  STC_API_BEGIN
  check_out(ret_data_ptr, "ret_data_ptr");
  *ret_data_ptr = defined_tensor_of(tensor, "tensor").mutable_data_ptr();
  STC_API_END
}

AOTITorchError torch_get_const_data_ptr(AtenTensorHandle tensor, const void** ret_data_ptr) {
  STC_API_BEGIN
  check_out(ret_data_ptr, "ret_data_ptr");
  *ret_data_ptr = defined_tensor_of(tensor, "tensor").const_data_ptr();
  STC_API_END
}

AOTITorchError aoti_torch_get_storage_size(AtenTensorHandle tensor, int64_t* ret_size) {
  STC_API_BEGIN
  check_out(ret_size, "ret_size");
  *ret_size = storage_nbytes(defined_tensor_of(tensor, "tensor"));
  STC_API_END
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
  STC_API_BEGIN
  check_out(ret_dim, "ret_dim");
  *ret_dim = defined_tensor_of(tensor, "tensor").dim();
  STC_API_END
}

AOTITorchError aoti_torch_get_numel(AtenTensorHandle tensor, int64_t* ret_numel) {
  STC_API_BEGIN
  check_out(ret_numel, "ret_numel");
  *ret_numel = defined_tensor_of(tensor, "tensor").numel();
  STC_API_END
}

AOTITorchError aoti_torch_get_storage_numel(AtenTensorHandle tensor, int64_t* ret_numel) {
  STC_API_BEGIN
  check_out(ret_numel, "ret_numel");
  const st::Tensor& t = defined_tensor_of(tensor, "tensor");
  *ret_numel = storage_nbytes(t) / t.element_size();
  STC_API_END
}

AOTITorchError aoti_torch_get_sizes(AtenTensorHandle tensor, int64_t** ret_sizes) {
  STC_API_BEGIN
  check_out(ret_sizes, "ret_sizes");
  // Borrowed: the C signature is PyTorch's (non-const) one; callers must
  // not write through it.
  *ret_sizes = const_cast<int64_t*>(defined_tensor_of(tensor, "tensor").sizes().data());
  STC_API_END
}

AOTITorchError aoti_torch_get_size(AtenTensorHandle tensor, int64_t d, int64_t* ret_size) {
  STC_API_BEGIN
  check_out(ret_size, "ret_size");
  *ret_size = defined_tensor_of(tensor, "tensor").size(d);
  STC_API_END
}

AOTITorchError aoti_torch_get_strides(AtenTensorHandle tensor, int64_t** ret_strides) {
  STC_API_BEGIN
  check_out(ret_strides, "ret_strides");
  *ret_strides = const_cast<int64_t*>(defined_tensor_of(tensor, "tensor").strides().data());
  STC_API_END
}

AOTITorchError aoti_torch_get_stride(AtenTensorHandle tensor, int64_t d, int64_t* ret_stride) {
  STC_API_BEGIN
  check_out(ret_stride, "ret_stride");
  *ret_stride = defined_tensor_of(tensor, "tensor").stride(d);
  STC_API_END
}

AOTITorchError aoti_torch_get_dtype(AtenTensorHandle tensor, int32_t* ret_dtype) {
  STC_API_BEGIN
  check_out(ret_dtype, "ret_dtype");
  *ret_dtype = static_cast<int32_t>(defined_tensor_of(tensor, "tensor").scalar_type());
  STC_API_END
}

AOTITorchError aoti_torch_get_device_type(AtenTensorHandle tensor, int32_t* ret_device_type) {
  STC_API_BEGIN
  check_out(ret_device_type, "ret_device_type");
  *ret_device_type = static_cast<int32_t>(defined_tensor_of(tensor, "tensor").device().type());
  STC_API_END
}

AOTITorchError aoti_torch_get_device_index(AtenTensorHandle tensor, int32_t* ret_device_index) {
  STC_API_BEGIN
  check_out(ret_device_index, "ret_device_index");
  *ret_device_index = defined_tensor_of(tensor, "tensor").device().index();
  STC_API_END
}

AOTITorchError aoti_torch_get_layout(AtenTensorHandle tensor, int32_t* ret_layout) {
  STC_API_BEGIN
  check_out(ret_layout, "ret_layout");
  (void)defined_tensor_of(tensor, "tensor");
  // The core has strided tensors only.
  *ret_layout = static_cast<int32_t>(torch::headeronly::Layout::Strided);
  STC_API_END
}

AOTITorchError aoti_torch_get_storage_offset(AtenTensorHandle tensor,
                                             int64_t* ret_storage_offset) {
  STC_API_BEGIN
  check_out(ret_storage_offset, "ret_storage_offset");
  *ret_storage_offset = defined_tensor_of(tensor, "tensor").storage_offset();
  STC_API_END
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
  STC_API_BEGIN
  (void)defined_tensor_of(tensor, "tensor");
  ST_CHECK(!requires_grad,
           "requires_grad=True is not supported: this core has no autograd (only "
           "requires_grad=False is accepted)");
  STC_API_END
}

}  // extern "C"
