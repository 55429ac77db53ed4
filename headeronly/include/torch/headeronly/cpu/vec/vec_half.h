// float2half_scalar / half2float_scalar: one IEEE half <-> float
// conversion (round to nearest even), with the F16C instruction when the
// target has it and the portable bit conversion of util/Half.h otherwise,
// so every target gets the same results.
#pragma once

#include <cstdint>

#include <torch/headeronly/cpu/vec/intrinsics.h>
#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/Half.h>

// PyTorch compiles its vectorised kernels once per instruction set, each
// time with CPU_CAPABILITY naming it; code built once uses DEFAULT.
#ifndef CPU_CAPABILITY
#define TORCH_HEADERONLY_VEC_CAPABILITY_ DEFAULT
#else
#define TORCH_HEADERONLY_VEC_CAPABILITY_ CPU_CAPABILITY
#endif

namespace torch::headeronly::vec {
inline namespace TORCH_HEADERONLY_VEC_CAPABILITY_ {

static inline uint16_t float2half_scalar(float val) {
#if defined(__F16C__)
  return static_cast<uint16_t>(_cvtss_sh(val, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
#else
  return detail::fp16_ieee_from_fp32_value(val);
#endif
}

static inline float half2float_scalar(uint16_t val) {
#if defined(__F16C__)
  return _cvtsh_ss(val);
#else
  return detail::fp16_ieee_to_fp32_value(val);
#endif
}

}  // namespace TORCH_HEADERONLY_VEC_CAPABILITY_
}  // namespace torch::headeronly::vec

#undef TORCH_HEADERONLY_VEC_CAPABILITY_

namespace at::vec {
using torch::headeronly::vec::float2half_scalar;
using torch::headeronly::vec::half2float_scalar;
}  // namespace at::vec
