// torch::headeronly::Float4_e2m1fn_x2 (also c10::Float4_e2m1fn_x2): two
// packed FP4 E2M1 values in one byte, as used by MX/NV FP4 tensors. It is a
// storage type only: like PyTorch, no arithmetic or float conversion is
// offered, because the meaning of a nibble depends on block scales that
// live elsewhere. Kernels read and write the raw byte.
#pragma once

#include <cstdint>

#include <torch/headeronly/macros/Macros.h>

namespace torch::headeronly {

struct alignas(1) Float4_e2m1fn_x2 {
  uint8_t val_;

  struct from_bits_t {};
  C10_HOST_DEVICE static constexpr from_bits_t from_bits() { return from_bits_t(); }

  Float4_e2m1fn_x2() = default;
  // PyTorch's spelling: explicit so that a uint8_t never silently becomes
  // a pair of FP4 values.
  C10_HOST_DEVICE constexpr explicit Float4_e2m1fn_x2(uint8_t val) : val_(val) {}
  C10_HOST_DEVICE constexpr Float4_e2m1fn_x2(uint8_t bits, from_bits_t) : val_(bits) {}
};

static_assert(sizeof(Float4_e2m1fn_x2) == 1, "one byte per packed pair");

// Equal when both packed values have the same bits.
inline C10_HOST_DEVICE bool operator==(const Float4_e2m1fn_x2& a, const Float4_e2m1fn_x2& b) {
  return a.val_ == b.val_;
}
inline C10_HOST_DEVICE bool operator!=(const Float4_e2m1fn_x2& a, const Float4_e2m1fn_x2& b) {
  return a.val_ != b.val_;
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::Float4_e2m1fn_x2;
using torch::headeronly::operator==;
using torch::headeronly::operator!=;
}  // namespace c10
