// Small helpers shared by the native kernels: Scalar <-> 0-dim tensors and
// shape printing for error messages.
#pragma once

#include <string>

#include <st/core/array_ref.h>
#include <st/core/export.h>
#include <st/core/scalar.h>
#include <st/core/tensor.h>

namespace st::native {

// The value of a one-element CPU tensor as a Scalar (bool, int64, double or
// complex<double> by the tensor's category).
ST_API Scalar item_scalar(const Tensor& t);

// "[2, 3]"
ST_API std::string shape_str(IntArrayRef shape);

}  // namespace st::native
