// Opaque bit-container dtypes (torch.bits1x8 ... torch.bits16): tensors of
// these hold raw bits whose meaning the user defines, so the types carry no
// arithmetic, only storage of the right width. Layouts match PyTorch's so
// that the element size and alignment reported for these dtypes agree.
#pragma once

#include <cstdint>

#include <torch/headeronly/macros/Macros.h>

namespace torch::headeronly {

// Every bits type is the same storage-only struct: its underlying unsigned
// integer, an explicit constructor from it, nothing else.
#define TORCH_HEADERONLY_BITS_TYPE(name, align, underlying_type)                \
  struct alignas(align) name {                                                  \
    using underlying = underlying_type;                                         \
    underlying_type val_;                                                       \
    name() = default;                                                           \
    C10_HOST_DEVICE constexpr explicit name(underlying_type val) : val_(val) {} \
  };

TORCH_HEADERONLY_BITS_TYPE(bits1x8, 1, uint8_t)  // eight 1-bit values
TORCH_HEADERONLY_BITS_TYPE(bits2x4, 1, uint8_t)  // four 2-bit values
TORCH_HEADERONLY_BITS_TYPE(bits4x2, 1, uint8_t)  // two 4-bit values
TORCH_HEADERONLY_BITS_TYPE(bits8, 1, uint8_t)
TORCH_HEADERONLY_BITS_TYPE(bits16, 2, uint16_t)

#undef TORCH_HEADERONLY_BITS_TYPE

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::bits16;
using torch::headeronly::bits1x8;
using torch::headeronly::bits2x4;
using torch::headeronly::bits4x2;
using torch::headeronly::bits8;
}  // namespace c10
