// torch::headeronly::qint8 (also c10::qint8): the element of signed 8-bit
// quantized tensors.
// Storage only: quantized kernels read val_ directly and apply the scale and
// zero point kept with the tensor, so the type deliberately has no
// arithmetic. Width and alignment match PyTorch's, which fixes the element
// size of the corresponding dtype.
#pragma once

#include <cstdint>

#include <torch/headeronly/macros/Macros.h>

namespace torch::headeronly {

struct alignas(1) qint8 {
  using underlying = int8_t;
  int8_t val_;
  qint8() = default;
  C10_HOST_DEVICE constexpr explicit qint8(int8_t val) : val_(val) {}
};

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::qint8;
}  // namespace c10
