// torch::headeronly::quint2x4 (also c10::quint2x4): four unsigned 2-bit
// quantized values packed in one byte.
// Storage only: quantized kernels read val_ directly and apply the scale and
// zero point kept with the tensor, so the type deliberately has no
// arithmetic. Width and alignment match PyTorch's, which fixes the element
// size of the corresponding dtype.
#pragma once

#include <cstdint>

#include <torch/headeronly/macros/Macros.h>

namespace torch::headeronly {

struct alignas(1) quint2x4 {
  using underlying = uint8_t;
  uint8_t val_;
  quint2x4() = default;
  C10_HOST_DEVICE constexpr explicit quint2x4(uint8_t val) : val_(val) {}
};

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::quint2x4;
}  // namespace c10
