// Random inputs for the property tests of the operator families:
// small-integer values (exact in every dtype, so products and sums can be
// compared exactly) in random layouts.
#pragma once

#include <random>
#include <vector>

#include <st/core/parallel.h>

#include "native/test_helpers.h"

namespace st_native_test {

// A tensor of `shape` with integers in [lo, hi] converted to dtype.
inline Tensor random_ints(std::mt19937& g, const std::vector<int64_t>& shape, ScalarType dtype,
                          int lo = -4, int hi = 4) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  std::vector<double> v(static_cast<size_t>(n));
  std::uniform_int_distribution<int> d(lo, hi);
  for (double& x : v) x = d(g);
  return make(v, shape, dtype);
}

// The same values as t in another layout: 0 = as is, 1 = stored with the
// dims reversed (a permuted view), 2 = every other element of a larger
// tensor (slices with step 2).
inline Tensor relayout(const Tensor& t, int kind) {
  const std::vector<int64_t> s = shape(t);
  if (kind == 1 && t.dim() > 1) {
    std::vector<int64_t> rev(s.rbegin(), s.rend()), perm;
    for (int64_t d = t.dim() - 1; d >= 0; --d) perm.push_back(d);
    Tensor v = st::permute(st::empty(IntArrayRef(rev), t.dtype()), IntArrayRef(perm));
    st::copy_(v, t);
    return v;
  }
  if (kind == 2 && t.dim() > 0) {
    std::vector<int64_t> big(s);
    for (auto& x : big) x = 2 * x;
    Tensor v = st::empty(IntArrayRef(big), t.dtype());
    for (int64_t d = 0; d < t.dim(); ++d) v = st::slice(v, d, 0, std::nullopt, 2);
    st::copy_(v, t);
    return v;
  }
  return t;
}

// Restores the thread count on scope exit.
struct ThreadCount {
  int saved = st::get_num_threads();
  explicit ThreadCount(int n) { st::set_num_threads(n); }
  ~ThreadCount() { st::set_num_threads(saved); }
};

}  // namespace st_native_test
