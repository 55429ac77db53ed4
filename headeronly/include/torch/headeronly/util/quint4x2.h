// torch::headeronly::quint4x2 (also c10::quint4x2): two unsigned 4-bit
// quantized values packed in one byte.
// Storage only: quantized kernels read val_ directly and apply the scale and
// zero point kept with the tensor, so the type deliberately has no
// arithmetic. Width and alignment match PyTorch's, which fixes the element
// size of the corresponding dtype.
#pragma once

#include <cstdint>

#include <torch/headeronly/macros/Macros.h>

namespace torch::headeronly {

struct alignas(1) quint4x2 {
  using underlying = uint8_t;
  uint8_t val_;
  quint4x2() = default;
  C10_HOST_DEVICE constexpr explicit quint4x2(uint8_t val) : val_(val) {}
};

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::quint4x2;
}  // namespace c10
