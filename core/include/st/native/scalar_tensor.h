// Scalars as 0-dim tensors, so that an operator with a Scalar argument
// runs through the same tensor kernels (and type promotion) as its tensor
// overload.
#pragma once

#include <st/core/export.h>
#include <st/core/scalar.h>
#include <st/core/tensor.h>

namespace st::native {

// A 0-dim CPU tensor holding `s` in its own dtype (Bool, Long, Double,
// ComplexDouble) marked as a wrapped number, as PyTorch wraps Scalars.
ST_API Tensor wrapped_scalar_tensor(const Scalar& s);

// A 0-dim CPU tensor holding `s` converted to dtype (not wrapped).
ST_API Tensor scalar_to_tensor(const Scalar& s, ScalarType dtype);

}  // namespace st::native
