// Foreach operators (_foreach_mul.List, _foreach_mul_.List,
// _foreach_add.List, _foreach_add_.List): the element-wise op applied pair
// by pair, with PyTorch's list checks. This is PyTorch's "slow" path; the
// per-pair op is the regular one, so broadcasting and type promotion
// follow it.
#include <vector>

#include <st/core/error.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>

namespace st::native {

namespace {

void check_lists(ArrayRef<Tensor> self, ArrayRef<Tensor> other, const char* op) {
  ST_CHECK(!self.empty(), op, ": Tensor list must have at least one tensor.");
  ST_CHECK(self.size() == other.size(), op,
           ": Tensor lists must have the same number of tensors, got ", self.size(), " and ",
           other.size());
}

}  // namespace

std::vector<Tensor> foreach_tensor_mul_list_kernel_slow(ArrayRef<Tensor> self,
                                                        ArrayRef<Tensor> other) {
  check_lists(self, other, "_foreach_mul");
  std::vector<Tensor> out;
  out.reserve(self.size());
  for (size_t i = 0; i < self.size(); ++i) out.push_back(st::mul(self[i], other[i]));
  return out;
}

void foreach_tensor_mul_list_kernel_slow_(ArrayRef<Tensor> self, ArrayRef<Tensor> other) {
  check_lists(self, other, "_foreach_mul_");
  for (size_t i = 0; i < self.size(); ++i) st::mul_(self[i], other[i]);
}

std::vector<Tensor> foreach_tensor_add_list_kernel_slow(ArrayRef<Tensor> self,
                                                        ArrayRef<Tensor> other,
                                                        const Scalar& alpha) {
  check_lists(self, other, "_foreach_add");
  std::vector<Tensor> out;
  out.reserve(self.size());
  for (size_t i = 0; i < self.size(); ++i) out.push_back(st::add(self[i], other[i], alpha));
  return out;
}

void foreach_tensor_add_list_kernel_slow_(ArrayRef<Tensor> self, ArrayRef<Tensor> other,
                                          const Scalar& alpha) {
  check_lists(self, other, "_foreach_add_");
  for (size_t i = 0; i < self.size(); ++i) st::add_(self[i], other[i], alpha);
}

}  // namespace st::native
