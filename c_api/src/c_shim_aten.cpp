// The aoti_torch_aten_* fallback shims (torch/csrc/inductor/aoti_torch/
// generated/c_shim_aten.h): each decodes its C arguments with the checks
// every C function uses and calls the operator's typed entry, so a shim
// behaves exactly as the same call through aoti_torch_call_dispatcher.
#include <optional>
#include <string_view>
#include <vector>

#include <st/core/error.h>
#include <st/core/scalar.h>
#include <st/generated/operators.h>
#include <torch/csrc/inductor/aoti_torch/generated/c_shim_aten.h>

#include "abi_codes.h"
#include "error_state.h"
#include "handle_types.h"

namespace {

using stc::check_out;
using stc::defined_tensor_of;
using stc::new_tensor_handle;

// The most dimensions a tensor has (as aoti_torch_empty_strided's ndim),
// so a size or dim list never has more entries; a pad list has two per
// dimension. A garbage length is refused before anything is read.
constexpr int64_t kMaxDims = 64;

st::IntArrayRef int_list(const int64_t* data, int64_t len, const char* what,
                         int64_t max_len = kMaxDims) {
  ST_CHECK(len >= 0 && len <= max_len, what, ": expected a length in [0, ", max_len, "], got ",
           len);
  ST_CHECK(len == 0 || data != nullptr, what, ": null pointer with length ", len);
  return st::IntArrayRef(data, static_cast<size_t>(len));
}

// The optional tensor options of the factory shims: NULL is "not given".
struct TensorOptions {
  std::optional<torch::headeronly::ScalarType> dtype;
  std::optional<torch::headeronly::Layout> layout;
  std::optional<st::Device> device;
  std::optional<bool> pin_memory;
};

TensorOptions read_options(const int32_t* dtype, const int32_t* layout, const int32_t* device,
                           int32_t device_index, const int32_t* pin_memory) {
  TensorOptions o;
  if (dtype != nullptr) o.dtype = stc::dtype_from_code(*dtype, "dtype");
  if (layout != nullptr) o.layout = stc::layout_from_code(*layout, "layout");
  if (device != nullptr) o.device = stc::device_from_codes(*device, device_index, "device");
  if (pin_memory != nullptr) {
    ST_CHECK(*pin_memory == 0 || *pin_memory == 1, "pin_memory: expected 0 or 1, got ",
             *pin_memory);
    o.pin_memory = *pin_memory != 0;
  }
  return o;
}

// new_empty / new_zeros: the same arguments, checked the same way.
template <typename Op>
AtenTensorHandle new_like(AtenTensorHandle self, const int64_t* size, int64_t size_len,
                          const int32_t* dtype, const int32_t* layout, const int32_t* device,
                          int32_t device_index, const int32_t* pin_memory) {
  const st::Tensor& t = defined_tensor_of(self, "self");
  const st::IntArrayRef sizes = int_list(size, size_len, "size");
  const TensorOptions o = read_options(dtype, layout, device, device_index, pin_memory);
  return new_tensor_handle(Op::call(t, sizes, o.dtype, o.layout, o.device, o.pin_memory));
}

}  // namespace

extern "C" {

AOTITorchError aoti_torch_aten_amax(AtenTensorHandle self, const int64_t* dim, int64_t dim_len_,
                                    int32_t keepdim, AtenTensorHandle* ret0) {
  STC_API_BEGIN
  check_out(ret0, "ret0");
  const st::Tensor& t = defined_tensor_of(self, "self");
  *ret0 = new_tensor_handle(st::ops::amax::call(t, int_list(dim, dim_len_, "dim"), keepdim != 0));
  STC_API_END
}

AOTITorchError aoti_torch_aten_fill__Scalar(AtenTensorHandle self, double value) {
  STC_API_BEGIN
  st::ops::fill__Scalar::call(defined_tensor_of(self, "self"), st::Scalar(value));
  STC_API_END
}

AOTITorchError aoti_torch_aten_full(const int64_t* size, int64_t size_len_, double fill_value,
                                    int32_t* dtype, int32_t* layout, int32_t* device,
                                    int32_t device_index_, int32_t* pin_memory,
                                    AtenTensorHandle* ret0) {
  STC_API_BEGIN
  check_out(ret0, "ret0");
  const st::IntArrayRef sizes = int_list(size, size_len_, "size");
  const TensorOptions o = read_options(dtype, layout, device, device_index_, pin_memory);
  *ret0 = new_tensor_handle(st::ops::full::call(sizes, st::Scalar(fill_value), o.dtype, o.layout,
                                                o.device, o.pin_memory));
  STC_API_END
}

AOTITorchError aoti_torch_aten_narrow(AtenTensorHandle self, int64_t dim, int64_t start,
                                      int64_t length, AtenTensorHandle* ret0) {
  STC_API_BEGIN
  check_out(ret0, "ret0");
  *ret0 =
      new_tensor_handle(st::ops::narrow::call(defined_tensor_of(self, "self"), dim, start, length));
  STC_API_END
}

AOTITorchError aoti_torch_aten_new_empty(AtenTensorHandle self, const int64_t* size,
                                         int64_t size_len_, int32_t* dtype, int32_t* layout,
                                         int32_t* device, int32_t device_index_,
                                         int32_t* pin_memory, AtenTensorHandle* ret0) {
  STC_API_BEGIN
  check_out(ret0, "ret0");
  *ret0 = new_like<st::ops::new_empty>(self, size, size_len_, dtype, layout, device, device_index_,
                                       pin_memory);
  STC_API_END
}

AOTITorchError aoti_torch_aten_new_zeros(AtenTensorHandle self, const int64_t* size,
                                         int64_t size_len_, int32_t* dtype, int32_t* layout,
                                         int32_t* device, int32_t device_index_,
                                         int32_t* pin_memory, AtenTensorHandle* ret0) {
  STC_API_BEGIN
  check_out(ret0, "ret0");
  *ret0 = new_like<st::ops::new_zeros>(self, size, size_len_, dtype, layout, device, device_index_,
                                       pin_memory);
  STC_API_END
}

AOTITorchError aoti_torch_aten_pad(AtenTensorHandle self, const int64_t* pad, int64_t pad_len_,
                                   const char* mode, double* value, AtenTensorHandle* ret0) {
  STC_API_BEGIN
  check_out(ret0, "ret0");
  const st::Tensor& t = defined_tensor_of(self, "self");
  ST_CHECK(mode != nullptr,
           "mode: null pointer (expected \"constant\", \"reflect\", "
           "\"replicate\" or \"circular\")");
  std::optional<double> fill;
  if (value != nullptr) fill = *value;
  *ret0 = new_tensor_handle(st::ops::pad::call(t, int_list(pad, pad_len_, "pad", 2 * kMaxDims),
                                               std::string_view(mode), fill));
  STC_API_END
}

AOTITorchError aoti_torch_aten_subtract_Tensor(AtenTensorHandle self, AtenTensorHandle other,
                                               double alpha, AtenTensorHandle* ret0) {
  STC_API_BEGIN
  check_out(ret0, "ret0");
  *ret0 = new_tensor_handle(st::ops::subtract_Tensor::call(
      defined_tensor_of(self, "self"), defined_tensor_of(other, "other"), st::Scalar(alpha)));
  STC_API_END
}

}  // extern "C"
