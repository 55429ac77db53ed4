// nan_to_num on CUDA: a unary launch whose functor carries the three
// replacements (the one pointwise op with arguments of its own).
#include "unary.cuh"

namespace st::cuda::kernels {
namespace {

struct NanToNum {
  double nan, posinf, neginf;
  template <typename Acc>
  __device__ __forceinline__ Acc operator()(Acc x) const {
    if constexpr (std::is_same_v<Acc, int64_t>) {
      return x;  // integers have no NaN or infinity
    } else {
      if (is_nan(x)) return static_cast<Acc>(nan);
      if (isinf(x)) return static_cast<Acc>(x > Acc(0) ? posinf : neginf);
      return x;
    }
  }
};

}  // namespace

cudaError_t nan_to_num(Compute compute, const Shape& shape, const Operand& out, const Operand& in,
                       double nan, double posinf, double neginf, int64_t numel,
                       cudaStream_t stream) {
  return launch_unary(NanToNum{nan, posinf, neginf}, compute, shape, out, in, numel, stream);
}

}  // namespace st::cuda::kernels
