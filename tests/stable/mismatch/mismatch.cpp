// A plugin whose kernel disagrees with its schema in two argument
// positions and its return; the core must refuse it at registration, with
// every differing position listed. Built twice: def before impl, and
// (IMPL_FIRST) impl before def.
#include <torch/csrc/stable/library.h>

#include <optional>

namespace {

using torch::stable::Tensor;

// Schema: (Tensor x, int n, float? y) -> Tensor
int64_t bad(const Tensor& x, double n, std::optional<int64_t> y) {
  (void)x;
  (void)y;
  return static_cast<int64_t>(n);
}

}  // namespace

#ifndef IMPL_FIRST
STABLE_TORCH_LIBRARY(sdk_mismatch, m) { m.def("bad(Tensor x, int n, float? y) -> Tensor"); }
STABLE_TORCH_LIBRARY_IMPL(sdk_mismatch, CPU, m) { m.impl("bad", TORCH_BOX(&bad)); }
#else
STABLE_TORCH_LIBRARY_IMPL(sdk_mismatch_late, CPU, m) { m.impl("bad", TORCH_BOX(&bad)); }
STABLE_TORCH_LIBRARY(sdk_mismatch_late, m) { m.def("bad(Tensor x, int n, float? y) -> Tensor"); }
#endif
