// irange(end) / irange(begin, end): a range-for over integers,
//   for (const auto i : irange(n)) { ... }
// with the loop variable of the bound's type. An empty or negative range
// runs zero times: irange(begin, end) clamps end to begin, and irange(end)
// with a negative end is empty. Usable in device code.
// Header-only: depends on TypeSafeSignMath.h and the standard library.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <type_traits>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/TypeSafeSignMath.h>

namespace torch::headeronly {

namespace detail {

// one_sided: the range starts at 0, so the end iterator also matches any
// position when the end is negative (an empty range).
template <typename I, bool one_sided = false, std::enable_if_t<std::is_integral_v<I>, int> = 0>
struct integer_iterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = I;
  using difference_type = std::ptrdiff_t;
  using pointer = I*;
  using reference = I&;

  C10_ALWAYS_INLINE C10_HOST_DEVICE explicit constexpr integer_iterator(I val) : value(val) {}

  C10_ALWAYS_INLINE C10_HOST_DEVICE constexpr I operator*() const { return value; }
  C10_ALWAYS_INLINE C10_HOST_DEVICE constexpr I const* operator->() const { return &value; }
  C10_ALWAYS_INLINE C10_HOST_DEVICE constexpr integer_iterator& operator++() {
    ++value;
    return *this;
  }
  C10_ALWAYS_INLINE C10_HOST_DEVICE constexpr integer_iterator operator++(int) {
    integer_iterator before = *this;
    ++value;
    return before;
  }
  C10_ALWAYS_INLINE C10_HOST_DEVICE constexpr bool operator==(const integer_iterator& other) const {
    if constexpr (one_sided) {
      return value == other.value || is_negative(other.value);
    } else {
      return value == other.value;
    }
  }
  C10_ALWAYS_INLINE C10_HOST_DEVICE constexpr bool operator!=(const integer_iterator& other) const {
    return !(*this == other);
  }

 protected:
  I value;
};

}  // namespace detail

template <typename I, bool one_sided = false, std::enable_if_t<std::is_integral_v<I>, bool> = true>
struct integer_range {
 public:
  using iterator = detail::integer_iterator<I, one_sided>;

  C10_ALWAYS_INLINE C10_HOST_DEVICE constexpr integer_range(I begin, I end)
      : begin_(begin), end_(end) {}
  C10_ALWAYS_INLINE C10_HOST_DEVICE constexpr iterator begin() const { return begin_; }
  C10_ALWAYS_INLINE C10_HOST_DEVICE constexpr iterator end() const { return end_; }

 private:
  iterator begin_;
  iterator end_;
};

// [begin, end) in end's type; begin is converted to it first, so
// irange(0, n) iterates in n's type.
template <typename Integer1, typename Integer2,
          std::enable_if_t<std::is_integral_v<Integer1>, bool> = true,
          std::enable_if_t<std::is_integral_v<Integer2>, bool> = true>
C10_ALWAYS_INLINE C10_HOST_DEVICE constexpr integer_range<Integer2> irange(Integer1 begin,
                                                                           Integer2 end) {
  const Integer2 first = static_cast<Integer2>(begin);
  return {first, end < first ? first : end};
}

// [0, end); empty when end <= 0.
template <typename Integer, std::enable_if_t<std::is_integral_v<Integer>, bool> = true>
C10_ALWAYS_INLINE C10_HOST_DEVICE constexpr integer_range<Integer, true> irange(Integer end) {
  return {Integer(), end};
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::integer_range;
using torch::headeronly::irange;
namespace detail {
using torch::headeronly::detail::integer_iterator;
}  // namespace detail
}  // namespace c10
