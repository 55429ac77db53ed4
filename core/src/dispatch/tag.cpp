#include <st/dispatch/tag.h>

namespace st {

const char* toString(Tag tag) {
  switch (tag) {
    case Tag::core:
      return "core";
    case Tag::cudagraph_unsafe:
      return "cudagraph_unsafe";
    case Tag::data_dependent_output:
      return "data_dependent_output";
    case Tag::dynamic_output_shape:
      return "dynamic_output_shape";
    case Tag::flexible_layout:
      return "flexible_layout";
    case Tag::generated:
      return "generated";
    case Tag::inplace:
      return "inplace";
    case Tag::inplace_view:
      return "inplace_view";
    case Tag::maybe_aliasing_or_mutating:
      return "maybe_aliasing_or_mutating";
    case Tag::needs_contiguous_strides:
      return "needs_contiguous_strides";
    case Tag::needs_exact_strides:
      return "needs_exact_strides";
    case Tag::needs_fixed_stride_order:
      return "needs_fixed_stride_order";
    case Tag::nondeterministic_bitwise:
      return "nondeterministic_bitwise";
    case Tag::nondeterministic_seeded:
      return "nondeterministic_seeded";
    case Tag::out:
      return "out";
    case Tag::out_variant:
      return "out_variant";
    case Tag::pointwise:
      return "pointwise";
    case Tag::pt2_compliant_tag:
      return "pt2_compliant_tag";
    case Tag::reduction:
      return "reduction";
    case Tag::view_copy:
      return "view_copy";
  }
  return "UNKNOWN_TAG";
}

std::optional<Tag> parseTag(std::string_view name) {
  for (int32_t i = 0; i < kNumTags; ++i) {
    const Tag t = static_cast<Tag>(i);
    if (name == toString(t)) return t;
  }
  return std::nullopt;
}

}  // namespace st
