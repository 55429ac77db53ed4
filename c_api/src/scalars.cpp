// Scalar read-out of one-element tensors (aoti_torch_item_*) and zero-dim
// tensors from C numbers (aoti_torch_scalar_to_tensor_*). Conversions are
// checked like PyTorch's item().to<T>(): a value that does not fit fails.
#include <complex>
#include <cstring>

#include <st/core/empty_tensor.h>
#include <st/core/scalar.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/headeronly/util/BFloat16.h>
#include <torch/headeronly/util/Float4_e2m1fn_x2.h>
#include <torch/headeronly/util/Float8_e4m3fn.h>
#include <torch/headeronly/util/Float8_e4m3fnuz.h>
#include <torch/headeronly/util/Float8_e5m2.h>
#include <torch/headeronly/util/Float8_e5m2fnuz.h>
#include <torch/headeronly/util/Float8_e8m0fnu.h>
#include <torch/headeronly/util/Half.h>
#include <torch/headeronly/util/complex.h>

#include "error_state.h"
#include "handle_types.h"

namespace {

namespace tho = torch::headeronly;
using tho::ScalarType;

template <typename T>
T load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// The single element of a CPU tensor as a Scalar.
st::Scalar item(AtenTensorHandle h) {
  const st::Tensor& t = stc::defined_tensor_of(h, "tensor");
  ST_CHECK(t.numel() == 1, "tensor: expected a tensor with one element, got ", t.numel(),
           " elements");
  ST_CHECK(t.is_cpu(), "tensor: expected a CPU tensor, got device ", t.device());
  const void* p = t.const_data_ptr();
  switch (t.scalar_type()) {
    case ScalarType::Byte:
      return st::Scalar(load<uint8_t>(p));
    case ScalarType::Char:
      return st::Scalar(load<int8_t>(p));
    case ScalarType::Short:
      return st::Scalar(load<int16_t>(p));
    case ScalarType::Int:
      return st::Scalar(load<int32_t>(p));
    case ScalarType::Long:
      return st::Scalar(load<int64_t>(p));
    case ScalarType::UInt16:
      return st::Scalar(load<uint16_t>(p));
    case ScalarType::UInt32:
      return st::Scalar(load<uint32_t>(p));
    case ScalarType::UInt64:
      return st::Scalar(load<uint64_t>(p));
    case ScalarType::Bool:
      return st::Scalar(load<uint8_t>(p) != 0);
    case ScalarType::Half:
      return st::Scalar(static_cast<float>(load<tho::Half>(p)));
    case ScalarType::BFloat16:
      return st::Scalar(static_cast<float>(load<tho::BFloat16>(p)));
    case ScalarType::Float:
      return st::Scalar(load<float>(p));
    case ScalarType::Double:
      return st::Scalar(load<double>(p));
    case ScalarType::Float8_e5m2:
      return st::Scalar(static_cast<float>(load<tho::Float8_e5m2>(p)));
    case ScalarType::Float8_e4m3fn:
      return st::Scalar(static_cast<float>(load<tho::Float8_e4m3fn>(p)));
    case ScalarType::Float8_e5m2fnuz:
      return st::Scalar(static_cast<float>(load<tho::Float8_e5m2fnuz>(p)));
    case ScalarType::Float8_e4m3fnuz:
      return st::Scalar(static_cast<float>(load<tho::Float8_e4m3fnuz>(p)));
    case ScalarType::Float8_e8m0fnu:
      return st::Scalar(static_cast<float>(load<tho::Float8_e8m0fnu>(p)));
    case ScalarType::ComplexHalf: {
      const auto z = load<tho::complex<tho::Half>>(p);
      return st::Scalar(
          std::complex<double>(static_cast<float>(z.real()), static_cast<float>(z.imag())));
    }
    case ScalarType::ComplexFloat: {
      const auto z = load<tho::complex<float>>(p);
      return st::Scalar(std::complex<double>(z.real(), z.imag()));
    }
    case ScalarType::ComplexDouble: {
      const auto z = load<tho::complex<double>>(p);
      return st::Scalar(std::complex<double>(z.real(), z.imag()));
    }
    default:
      ST_ERROR("tensor: item() is not supported for dtype ", tho::toString(t.scalar_type()));
  }
}

template <typename T>
void read_item(AtenTensorHandle h, T* ret) {
  stc::check_out(ret, "ret_value");
  const st::Scalar s = item(h);
  if constexpr (std::is_same_v<T, AOTITorchHalf> || std::is_same_v<T, AOTITorchBFloat16>) {
    *ret = T(s.to<float>());
  } else if constexpr (std::is_same_v<T, AOTITorchComplex64>) {
    const std::complex<float> z = s.to<std::complex<float>>();
    *ret = T(z.real(), z.imag());
  } else {
    *ret = s.to<T>();
  }
}

template <typename T>
AtenTensorHandle wrap(ScalarType dtype, T value) {
  st::Tensor t =
      st::detail::empty_generic(st::IntArrayRef(), dtype, st::Device(st::DeviceType::CPU));
  std::memcpy(t.mutable_data_ptr(), &value, sizeof(T));
  return stc::new_tensor_handle(std::move(t));
}

}  // namespace

#define STC_ITEM(suffix, T)                                                  \
  AOTITorchError aoti_torch_item_##suffix(AtenTensorHandle tensor, T* ret) { \
    STC_API_BEGIN                                                            \
    read_item<T>(tensor, ret);                                               \
    STC_API_END                                                              \
  }
#define STC_WRAP(suffix, T, dtype)                                                      \
  AOTITorchError aoti_torch_scalar_to_tensor_##suffix(T value, AtenTensorHandle* ret) { \
    STC_API_BEGIN                                                                       \
    stc::check_out(ret, "ret_new_tensor");                                              \
    *ret = wrap(ScalarType::dtype, value);                                              \
    STC_API_END                                                                         \
  }

extern "C" {

STC_ITEM(float16, AOTITorchHalf)
STC_ITEM(float32, float)
STC_ITEM(float64, double)
STC_ITEM(uint8, uint8_t)
STC_ITEM(uint16, uint16_t)
STC_ITEM(uint32, uint32_t)
STC_ITEM(uint64, uint64_t)
STC_ITEM(int8, int8_t)
STC_ITEM(int16, int16_t)
STC_ITEM(int32, int32_t)
STC_ITEM(int64, int64_t)
STC_ITEM(bool, bool)
STC_ITEM(bfloat16, AOTITorchBFloat16)
STC_ITEM(complex64, AOTITorchComplex64)

STC_WRAP(float32, float, Float)
STC_WRAP(float64, double, Double)
STC_WRAP(uint8, uint8_t, Byte)
STC_WRAP(uint16, uint16_t, UInt16)
STC_WRAP(uint32, uint32_t, UInt32)
STC_WRAP(uint64, uint64_t, UInt64)
STC_WRAP(int8, int8_t, Char)
STC_WRAP(int16, int16_t, Short)
STC_WRAP(int32, int32_t, Int)
STC_WRAP(int64, int64_t, Long)
STC_WRAP(bool, bool, Bool)
STC_WRAP(complex64, AOTITorchComplex64, ComplexFloat)
STC_WRAP(complex128, AOTITorchComplex128, ComplexDouble)

}  // extern "C"

#undef STC_ITEM
#undef STC_WRAP
