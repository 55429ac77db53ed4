// Creating tensors and views: empty_strided, as_strided,
// _reinterpret_tensor. (Wrapping external memory: from_blob.cpp.)
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/generated/operators.h>
#include <st/native/view_ops.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

#include "abi_codes.h"
#include "error_state.h"
#include "handle_types.h"
#include "tensor_geometry.h"

using stc::check_out;
using stc::defined_tensor_of;
using stc::new_tensor_handle;

namespace {

// The (ndim, sizes, strides, dtype, device) arguments of the empty_strided
// functions, checked in that order. The device is decoded where it is
// passed: a Device kept in this struct is written byte by byte and read
// back as one word, a store-forwarding stall on every call.
struct StridedArgs {
  stc::Geometry g;
  torch::headeronly::ScalarType dtype;
  int32_t device_type;
  int32_t device_index;
  StridedArgs(int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr,
              int32_t dtype_code, int32_t device_type, int32_t device_index)
      : g(stc::read_geometry(ndim, sizes_ptr, strides_ptr)),
        dtype(stc::dtype_from_code(dtype_code, "dtype")),
        device_type(device_type),
        device_index(device_index) {}
  st::Device device() const { return stc::device_from_codes(device_type, device_index, "device"); }
};

}  // namespace

extern "C" {

AOTITorchError aoti_torch_empty_strided(int64_t ndim, const int64_t* sizes_ptr,
                                        const int64_t* strides_ptr, int32_t dtype,
                                        int32_t device_type, int32_t device_index,
                                        AtenTensorHandle* ret_new_tensor) {
  STC_API_BEGIN
  check_out(ret_new_tensor, "ret_new_tensor");
  const StridedArgs a(ndim, sizes_ptr, strides_ptr, dtype, device_type, device_index);
  *ret_new_tensor = new_tensor_handle(
      st::detail::empty_strided_generic(a.g.sizes_ref(), a.g.strides_ref(), a.dtype, a.device()));
  STC_API_END
}

// Through aten::empty_strided with pin_memory=True, so it fails as that
// operator does where no pinned-memory allocator exists.
AOTITorchError aoti_torch_empty_strided_pinned(int64_t ndim, const int64_t* sizes_ptr,
                                               const int64_t* strides_ptr, int32_t dtype,
                                               int32_t device_type, int32_t device_index,
                                               AtenTensorHandle* ret_new_tensor) {
  STC_API_BEGIN
  check_out(ret_new_tensor, "ret_new_tensor");
  const StridedArgs a(ndim, sizes_ptr, strides_ptr, dtype, device_type, device_index);
  *ret_new_tensor = new_tensor_handle(st::ops::empty_strided::call(
      a.g.sizes_ref(), a.g.strides_ref(), a.dtype, std::nullopt, a.device(), true));
  STC_API_END
}

AOTITorchError aoti_torch_as_strided(AtenTensorHandle self, const int64_t* sizes_ptr,
                                     const int64_t* strides_ptr, AtenTensorHandle* ret) {
  STC_API_BEGIN
  check_out(ret, "ret");
  const st::Tensor& t = defined_tensor_of(self, "self");
  ST_CHECK(t.dim() == 0 || (sizes_ptr != nullptr && strides_ptr != nullptr),
           "sizes_ptr/strides_ptr: null pointer for a ", t.dim(), "-dim tensor");
  const stc::Geometry g = stc::read_geometry(t.dim(), sizes_ptr, strides_ptr);
  *ret = new_tensor_handle(
      st::native::as_strided(t, g.sizes_ref(), g.strides_ref(), t.storage_offset()));
  STC_API_END
}

AOTITorchError aoti_torch__reinterpret_tensor(AtenTensorHandle self, int64_t ndim,
                                              const int64_t* sizes_ptr, const int64_t* strides_ptr,
                                              int64_t storage_offset,
                                              AtenTensorHandle* ret_new_tensor) {
  STC_API_BEGIN
  check_out(ret_new_tensor, "ret_new_tensor");
  const st::Tensor& t = defined_tensor_of(self, "self");
  ST_CHECK(ndim == 0 || (sizes_ptr != nullptr && strides_ptr != nullptr),
           "sizes_ptr/strides_ptr: null pointer with ndim ", ndim);
  const stc::Geometry g = stc::read_geometry(ndim, sizes_ptr, strides_ptr);
  *ret_new_tensor =
      new_tensor_handle(st::native::as_strided(t, g.sizes_ref(), g.strides_ref(), storage_offset));
  STC_API_END
}

}  // extern "C"
