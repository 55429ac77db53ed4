// Tensors to kernel arguments (internal to the CUDA backend): dtype codes,
// compute types, iteration shapes and broadcast operands.
#pragma once

#include <st/core/array_ref.h>
#include <st/core/tensor.h>

#include "kernels/cuda_kernels.h"

namespace st::cuda::detail {

// The kernels' code for a dtype; throws st::Error naming `op` and the dtype
// for dtypes the CUDA kernels do not handle (complex, float8, unsigned).
int32_t kernel_dtype(ScalarType dtype, const char* op);
// Float for half/bfloat16/float, Double for double, Int for integers/bool.
kernels::Compute compute_type(ScalarType dtype);
kernels::Shape make_shape(IntArrayRef sizes, const char* op);
// t as an operand of the iteration `shape` (t's sizes right-aligned and
// broadcast: size-1 or missing dimensions get stride 0). Throws when t
// does not broadcast to shape.
kernels::Operand make_operand(const Tensor& t, IntArrayRef shape, const char* op);
// Throws st::Error "<op>: CUDA error: ..." for a failed launch.
void check_launch(cudaError_t err, const char* op);
// Checks t is a CUDA tensor; `what` names the argument.
void check_cuda(const Tensor& t, const char* op, const char* what);

}  // namespace st::cuda::detail
