// The schemas of sample_op's operators and the kernels behind them. The
// schemas are the source of truth for how the core converts arguments; the
// core also checks each TORCH_BOX'd kernel's C++ signature against them.
#include "sample_op.h"

#include <torch/csrc/stable/library.h>

STABLE_TORCH_LIBRARY(sample_op, m) {
  m.def(
      "scale_add_clamp(Tensor x, Tensor y, float alpha=1., float? min=None, "
      "float? max=None) -> Tensor");
  m.def("row_normalize(Tensor x, float eps=1e-05) -> Tensor");
  m.def("scale_(Tensor(a!) x, float factor) -> Tensor(a!)");
  m.def("weighted_sum(Tensor[] tensors, float[] weights) -> Tensor");
  m.def("moments(Tensor x, int[] dims, bool keepdim=False) -> (Tensor mean, Tensor var)");
  m.def("describe(Tensor x, str label, bool verbose=False) -> str");
  m.def("cast_to(Tensor x, ScalarType dtype, Device device) -> Tensor");
  m.def("masked_fill_value(Tensor x, Tensor? mask, int value) -> Tensor");
}

STABLE_TORCH_LIBRARY_IMPL(sample_op, CPU, m) {
  m.impl("scale_add_clamp", TORCH_BOX(&sample_op::scale_add_clamp));
  m.impl("row_normalize", TORCH_BOX(&sample_op::row_normalize));
  m.impl("scale_", TORCH_BOX(&sample_op::scale_));
  m.impl("weighted_sum", TORCH_BOX(&sample_op::weighted_sum));
  m.impl("masked_fill_value", TORCH_BOX(&sample_op::masked_fill_value));
}

// Device-generic ops: they only call other operators, so they run for any
// backend and for inputs without a tensor.
STABLE_TORCH_LIBRARY_IMPL(sample_op, CompositeExplicitAutograd, m) {
  m.impl("moments", TORCH_BOX(&sample_op::moments));
  m.impl("describe", TORCH_BOX(&sample_op::describe));
  m.impl("cast_to", TORCH_BOX(&sample_op::cast_to));
}

#ifdef SAMPLE_OP_WITH_CUDA
STABLE_TORCH_LIBRARY_IMPL(sample_op, CUDA, m) {
  m.impl("scale_add_clamp", TORCH_BOX(&sample_op::scale_add_clamp_cuda));
}
#endif
