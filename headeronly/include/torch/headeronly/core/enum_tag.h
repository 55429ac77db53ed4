// torch::headeronly::Tag: the operator tags (PyTorch's tags.yaml), in
// PyTorch's order. Extensions pass them to StableLibrary::def(schema, tags);
// they cross the C ABI as the codes the torch_tag_* getters return, never as
// these ordinals, but the ordinals are pinned anyway (a test checks them) so
// that the same source means the same thing against PyTorch's headers.
// The underlying type is int, as in PyTorch (std::vector<at::Tag> must have
// the same layout on both sides).
#pragma once

namespace torch::headeronly {

enum class Tag {
  core = 0,
  cudagraph_unsafe = 1,
  data_dependent_output = 2,
  dynamic_output_shape = 3,
  flexible_layout = 4,
  generated = 5,
  inplace = 6,
  inplace_view = 7,
  maybe_aliasing_or_mutating = 8,
  needs_contiguous_strides = 9,
  needs_exact_strides = 10,
  needs_fixed_stride_order = 11,
  nondeterministic_bitwise = 12,
  nondeterministic_seeded = 13,
  out = 14,
  out_variant = 15,
  pointwise = 16,
  pt2_compliant_tag = 17,
  reduction = 18,
  view_copy = 19
};

}  // namespace torch::headeronly

// PyTorch spells it at::Tag.
namespace at {
using torch::headeronly::Tag;
}  // namespace at
