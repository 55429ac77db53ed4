// st::Tag: an operator tag (pointwise, inplace_view, ...), PyTorch's
// torch::headeronly::Tag. An operator's def carries its tags; the dispatcher
// stores them with the schema (OperatorHandle::tags()).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

#include <st/core/export.h>
#include <torch/headeronly/core/enum_tag.h>

namespace st {

using Tag = torch::headeronly::Tag;

// Number of tags; their ordinals are 0 .. kNumTags - 1.
inline constexpr int32_t kNumTags = static_cast<int32_t>(Tag::view_copy) + 1;

// The tag named by an ordinal, or nullopt when no tag has it.
constexpr std::optional<Tag> tagFromOrdinal(int64_t ordinal) {
  if (ordinal < 0 || ordinal >= kNumTags) return std::nullopt;
  return static_cast<Tag>(ordinal);
}

// The tag's name as PyTorch spells it ("pointwise", "pt2_compliant_tag").
ST_API const char* toString(Tag tag);
// The tag of that name, or nullopt.
ST_API std::optional<Tag> parseTag(std::string_view name);

inline std::ostream& operator<<(std::ostream& os, Tag tag) { return os << toString(tag); }

}  // namespace st
