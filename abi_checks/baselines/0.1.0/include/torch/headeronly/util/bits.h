// Opaque bit-container dtypes (torch.bits1x8 ... torch.bits16): tensors of
// these hold raw bits whose meaning the user defines, so the types carry no
// arithmetic, only storage of the right width. Layouts match PyTorch's so
// that the element size and alignment reported for these dtypes agree.
#pragma once

#include <cstdint>

#include <torch/headeronly/macros/Macros.h>

namespace torch::headeronly {

// Eight 1-bit values in a byte.
struct alignas(1) bits1x8 {
  using underlying = uint8_t;
  uint8_t val_;
  bits1x8() = default;
  C10_HOST_DEVICE constexpr explicit bits1x8(uint8_t val) : val_(val) {}
};

// Four 2-bit values in a byte.
struct alignas(1) bits2x4 {
  using underlying = uint8_t;
  uint8_t val_;
  bits2x4() = default;
  C10_HOST_DEVICE constexpr explicit bits2x4(uint8_t val) : val_(val) {}
};

// Two 4-bit values in a byte.
struct alignas(1) bits4x2 {
  using underlying = uint8_t;
  uint8_t val_;
  bits4x2() = default;
  C10_HOST_DEVICE constexpr explicit bits4x2(uint8_t val) : val_(val) {}
};

struct alignas(1) bits8 {
  using underlying = uint8_t;
  uint8_t val_;
  bits8() = default;
  C10_HOST_DEVICE constexpr explicit bits8(uint8_t val) : val_(val) {}
};

struct alignas(2) bits16 {
  using underlying = uint16_t;
  uint16_t val_;
  bits16() = default;
  C10_HOST_DEVICE constexpr explicit bits16(uint16_t val) : val_(val) {}
};

} // namespace torch::headeronly

namespace c10 {
using torch::headeronly::bits16;
using torch::headeronly::bits1x8;
using torch::headeronly::bits2x4;
using torch::headeronly::bits4x2;
using torch::headeronly::bits8;
} // namespace c10
