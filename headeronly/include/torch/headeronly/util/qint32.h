// torch::headeronly::qint32 (also c10::qint32): the element of signed 32-bit
// quantized tensors.
// Storage only: quantized kernels read val_ directly and apply the scale and
// zero point kept with the tensor, so the type deliberately has no
// arithmetic. Width and alignment match PyTorch's, which fixes the element
// size of the corresponding dtype.
#pragma once

#include <cstdint>

#include <torch/headeronly/macros/Macros.h>

namespace torch::headeronly {

struct alignas(4) qint32 {
  using underlying = int32_t;
  int32_t val_;
  qint32() = default;
  C10_HOST_DEVICE constexpr explicit qint32(int32_t val) : val_(val) {}
};

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::qint32;
}  // namespace c10
