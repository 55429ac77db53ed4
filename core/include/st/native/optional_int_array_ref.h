// st::OptionalIntArrayRef: the C++ API's type for `int[]?` arguments
// (sum(t, {0, 1}), sum(t, std::nullopt)). It accepts braced lists, vectors,
// IntArrayRef and std::optional<IntArrayRef>, and converts to the
// std::optional<IntArrayRef> the dispatcher's kernels take. Like IntArrayRef
// it does not own the numbers: a braced list lives until the end of the
// full expression that contains the call.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include <st/core/array_ref.h>

namespace st {

class OptionalIntArrayRef {
 public:
  OptionalIntArrayRef() = default;
  OptionalIntArrayRef(std::nullopt_t) {}
  OptionalIntArrayRef(IntArrayRef r) : value_(r) {}
  OptionalIntArrayRef(const std::vector<int64_t>& v) : value_(IntArrayRef(v)) {}
  OptionalIntArrayRef(std::initializer_list<int64_t> l)
      : value_(IntArrayRef(l.begin(), l.size())) {}
  OptionalIntArrayRef(const std::optional<IntArrayRef>& o) : value_(o) {}

  bool has_value() const { return value_.has_value(); }
  operator std::optional<IntArrayRef>() const { return value_; }

 private:
  std::optional<IntArrayRef> value_;
};

}  // namespace st
