// Internal: fast paths the generic engines take first for the common
// cases, falling back (returning an undefined tensor) whenever a rule of
// the full engine could matter (type promotion, broadcasting, resizing,
// overlap checks, dtype conversion):
//   - add/sub/mul of two float or double CPU tensors of one dtype, both
//     contiguous, with equal shapes or a one-element `other` of at most the
//     same rank, or a dimensioned float/double self with a wrapped real
//     number (the Scalar overloads: x + 2.0), into a new tensor, self (in
//     place) or a matching contiguous out= that shares no memory with the
//     inputs.
// They run the per-ISA loops of vec_kernels.h, split over the thread pool
// in fixed-size blocks for large inputs, and allocate nothing but the
// result on the 1-element path.
#pragma once

#include <optional>

#include <st/core/array_ref.h>
#include <st/core/scalar.h>
#include <st/core/tensor.h>

namespace st::native::cpu {

enum class BinaryKind { Add, Mul };

// out undefined: allocate; inplace: out is self. alpha is ignored for Mul.
Tensor try_fast_binary(BinaryKind kind, const Tensor& out, const Tensor& self, const Tensor& other,
                       const Scalar& alpha, bool negate_alpha, bool inplace);

}  // namespace st::native::cpu
