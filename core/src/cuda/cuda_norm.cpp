// linalg_vector_norm on CUDA. The checks and the result's shape and dtype
// are the CPU kernel's (core/src/native/reduce_ops.cpp); the reduced
// dimensions are moved last and made contiguous, then one block reduces
// each row (kernels/norm.cu). Half, bfloat16 and float accumulate in float
// (the CPU: double), double in double.
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/device/device_guard.h>
#include <st/generated/functions.h>
#include <st/native/reduction.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"
#include "native/vector_norm_checks.h"

namespace st::cuda::ops {

Tensor vector_norm(const Tensor& self, const Scalar& ord, std::optional<IntArrayRef> dim,
                   bool keepdim, std::optional<ScalarType> dtype) {
  const char* name = "linalg.vector_norm";
  detail::check_cuda(self, name, "self");
  const double p = native::check_vector_norm(self, ord, dtype);
  DeviceGuard guard(self.device());
  const Tensor input = dtype.has_value() && *dtype != self.dtype() ? st::to(self, *dtype) : self;
  const native::ReduceGeometry g = native::make_reduce_geometry(input, dim, keepdim, name);
  native::check_vector_norm_identity(g, p);
  const ScalarType out_dtype = torch::headeronly::toRealValueType(input.dtype());
  // Complex inputs are refused here, naming the dtype (the kernels load
  // real dtypes only).
  const int32_t in_code = detail::kernel_dtype(input.dtype(), name);
  Tensor result = st::detail::empty_generic(IntArrayRef(g.out_shape), out_dtype, self.device());
  if (result.numel() == 0) return result;
  // Kept dimensions first, reduced ones last: output element o is row o.
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < input.dim(); ++d) {
    if (!g.mask[static_cast<size_t>(d)]) perm.push_back(d);
  }
  for (int64_t d = 0; d < input.dim(); ++d) {
    if (g.mask[static_cast<size_t>(d)]) perm.push_back(d);
  }
  const Tensor rows_view = st::contiguous(st::permute(input, IntArrayRef(perm)));
  const kernels::Compute compute =
      input.dtype() == ScalarType::Double ? kernels::Compute::Double : kernels::Compute::Float;
  detail::check_launch(
      kernels::norm_rows(compute, p, rows_view.const_data_ptr(), in_code, result.data_ptr(),
                         detail::kernel_dtype(out_dtype, name), g.num_outputs, g.reduce_size,
                         detail::current_native_stream()),
      name);
  return result;
}

}  // namespace st::cuda::ops
