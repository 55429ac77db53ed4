// maybe_wrap_dim: turns a possibly negative dim into [0, ndim), with
// PyTorch's error text for out-of-range dims.
#pragma once

#include <cstdint>

#include <st/core/error.h>
#include <st/core/export.h>

namespace st {

namespace detail {
[[noreturn]] ST_API void throw_dim_out_of_range(int64_t dim, int64_t min, int64_t max);
[[noreturn]] ST_API void throw_dim_on_scalar(int64_t dim);
}  // namespace detail

// Wraps `dim` for a tensor of `ndim` dims. A 0-dim tensor accepts -1 and 0
// when wrap_scalar is true (like PyTorch). Throws st::Error
// "Dimension out of range (expected to be in range of [-2, 1], but got 3)".
inline int64_t maybe_wrap_dim(int64_t dim, int64_t ndim, bool wrap_scalar = true) {
  if (__builtin_expect(ndim <= 0, 0)) {
    if (!wrap_scalar) {
      detail::throw_dim_on_scalar(dim);
    }
    ndim = 1;
  }
  const int64_t min = -ndim;
  const int64_t max = ndim - 1;
  if (__builtin_expect(dim < min || dim > max, 0)) {
    detail::throw_dim_out_of_range(dim, min, max);
  }
  return dim < 0 ? dim + ndim : dim;
}

}  // namespace st
