#include "cuda_tensor_args.h"

#include <st/core/error.h>

namespace st::cuda::detail {

int32_t kernel_dtype(ScalarType dtype, const char* op) {
  switch (dtype) {
    case ScalarType::Byte:
      return kernels::kByte;
    case ScalarType::Char:
      return kernels::kChar;
    case ScalarType::Short:
      return kernels::kShort;
    case ScalarType::Int:
      return kernels::kInt;
    case ScalarType::Long:
      return kernels::kLong;
    case ScalarType::Half:
      return kernels::kHalf;
    case ScalarType::Float:
      return kernels::kFloat;
    case ScalarType::Double:
      return kernels::kDouble;
    case ScalarType::Bool:
      return kernels::kBool;
    case ScalarType::BFloat16:
      return kernels::kBFloat16;
    default:
      ST_ERROR(op, ": dtype ", torch::headeronly::toString(dtype),
               " is not supported by the CUDA kernels (supported: uint8, int8, int16, int32, "
               "int64, float16, bfloat16, float32, float64, bool)");
  }
}

kernels::Compute compute_type(ScalarType dtype) {
  if (dtype == ScalarType::Double) return kernels::Compute::Double;
  if (torch::headeronly::isFloatingType(dtype)) return kernels::Compute::Float;
  return kernels::Compute::Int;
}

kernels::Shape make_shape(IntArrayRef sizes, const char* op) {
  ST_CHECK(sizes.size() <= static_cast<size_t>(kernels::kMaxDims), op,
           ": the CUDA kernels handle at most ", kernels::kMaxDims, " dimensions, got ",
           sizes.size());
  kernels::Shape s;
  s.ndim = static_cast<int32_t>(sizes.size());
  for (size_t d = 0; d < sizes.size(); ++d) s.sizes[d] = sizes[d];
  return s;
}

kernels::Operand make_operand(const Tensor& t, IntArrayRef shape, const char* op) {
  ST_CHECK(static_cast<size_t>(t.dim()) <= shape.size(), op, ": a tensor of shape ", t.sizes(),
           " cannot be broadcast to shape ", shape);
  kernels::Operand o;
  o.data = t.data_ptr();
  o.dtype = kernel_dtype(t.dtype(), op);
  const size_t lead = shape.size() - static_cast<size_t>(t.dim());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d < lead) {
      o.strides[d] = 0;
      continue;
    }
    const int64_t td = static_cast<int64_t>(d - lead);
    const int64_t size = t.size(td);
    ST_CHECK(size == shape[d] || size == 1, op, ": a tensor of shape ", t.sizes(),
             " cannot be broadcast to shape ", shape);
    o.strides[d] = size == 1 && shape[d] != 1 ? 0 : t.stride(td);
  }
  return o;
}

void check_launch(cudaError_t err, const char* op) {
  ST_CHECK(err == cudaSuccess, op, ": CUDA error: ", cudaGetErrorString(err));
}

void check_cuda(const Tensor& t, const char* op, const char* what) {
  ST_CHECK(t.defined() && t.is_cuda(), op, ": expected ", what, " on a CUDA device, got ",
           t.defined() ? t.device().str() : std::string("an undefined tensor"));
}

}  // namespace st::cuda::detail
