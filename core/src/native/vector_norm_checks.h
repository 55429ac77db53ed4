// The argument checks of linalg_vector_norm, one copy for the CPU kernel
// (reduce_ops.cpp) and the CUDA one (cuda/cuda_norm.cpp) so both refuse
// the same arguments with the same messages.
#pragma once

#include <optional>

#include <st/core/scalar.h>
#include <st/core/export.h>
#include <st/core/tensor.h>
#include <st/native/reduction.h>

namespace st::native {

// Checks that self and the requested dtype are floating point or complex;
// returns the order as a double (a complex order's real part).
ST_API double check_vector_norm(const Tensor& self, const Scalar& ord,
                                std::optional<ScalarType> dtype);

// A negative order has no identity: refuses to reduce an empty slice into
// a non-empty result.
ST_API void check_vector_norm_identity(const ReduceGeometry& g, double p);

}  // namespace st::native
