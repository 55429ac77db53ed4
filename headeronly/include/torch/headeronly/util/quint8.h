// torch::headeronly::quint8 (also c10::quint8): the element of unsigned 8-bit
// quantized tensors.
// Storage only: quantized kernels read val_ directly and apply the scale and
// zero point kept with the tensor, so the type deliberately has no
// arithmetic. Width and alignment match PyTorch's, which fixes the element
// size of the corresponding dtype.
#pragma once

#include <cstdint>

#include <torch/headeronly/macros/Macros.h>

namespace torch::headeronly {

struct alignas(1) quint8 {
  using underlying = uint8_t;
  uint8_t val_;
  quint8() = default;
  C10_HOST_DEVICE constexpr explicit quint8(uint8_t val) : val_(val) {}
};

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::quint8;
}  // namespace c10
