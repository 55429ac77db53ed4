// Property tests: random shapes (including zero-size and zero-dim), random
// layouts (permuted, sliced with steps, expanded) and dtypes, checked
// against a naive reference that reads elements one by one through strides.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include <st/core/result_type.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;

// Element of t at a multi-index given for the broadcast shape (aligned
// right; size-1 dims of t read index 0).
double at(const Tensor& t, const std::vector<int64_t>& idx) {
  int64_t off = 0;
  const int64_t shift = static_cast<int64_t>(idx.size()) - t.dim();
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t i = t.size(d) == 1 ? 0 : idx[static_cast<size_t>(d + shift)];
    off += i * t.stride(d);
  }
  double v = 0;
  st::native::dispatch_dtype<st::native::kEverything>(t.dtype(), "at", [&](auto tag) {
    using T = typename decltype(tag)::type;
    v = st::native::convert<double>(static_cast<const T*>(t.const_data_ptr())[off]);
  });
  return v;
}

void for_each_index(const std::vector<int64_t>& shape,
                    const std::function<void(const std::vector<int64_t>&)>& f) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t rem = k;
    for (size_t d = shape.size(); d-- > 0;) {
      idx[d] = rem % shape[d];
      rem /= shape[d];
    }
    f(idx);
  }
}

class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  std::vector<int64_t> shape(int max_dim = 4, int64_t max_size = 4) {
    std::vector<int64_t> s(static_cast<size_t>(uniform(0, max_dim)));
    for (auto& v : s) v = uniform(uniform(0, 9) == 0 ? 0 : 1, max_size);
    return s;
  }
  // A shape `out` broadcasts from: dims set to 1 or leading dims dropped.
  std::vector<int64_t> broadcastable(const std::vector<int64_t>& out) {
    std::vector<int64_t> s = out;
    for (auto& v : s) {
      if (uniform(0, 3) == 0) v = 1;
    }
    const int64_t drop = uniform(0, static_cast<int64_t>(s.size()));
    s.erase(s.begin(), s.begin() + (uniform(0, 1) ? drop : 0));
    return s;
  }
  // A tensor of `shape` with small random values and a random layout.
  Tensor tensor(const std::vector<int64_t>& shape, ScalarType dtype) {
    const int64_t nd = static_cast<int64_t>(shape.size());
    const int kind = static_cast<int>(uniform(0, 3));
    std::vector<int64_t> base_shape = shape;
    std::vector<int64_t> perm(static_cast<size_t>(nd));
    for (int64_t i = 0; i < nd; ++i) perm[static_cast<size_t>(i)] = i;
    if (kind == 1 && nd >= 2) {
      std::shuffle(perm.begin(), perm.end(), rng_);
      for (int64_t i = 0; i < nd; ++i)
        base_shape[static_cast<size_t>(i)] =
            shape[static_cast<size_t>(perm[static_cast<size_t>(i)])];
    }
    if (kind == 2 && nd >= 1) base_shape.back() *= 2;
    int64_t n = 1;
    for (int64_t s : base_shape) n *= s;
    std::vector<double> vals(static_cast<size_t>(n));
    for (auto& v : vals) {
      v = static_cast<double>(uniform(-6, 6));
      if (dtype == ScalarType::Bool) v = v > 0 ? 1 : 0;
      if (torch::headeronly::isFloatingType(dtype) && uniform(0, 1)) v += 0.5;
    }
    Tensor base = make(vals, base_shape, dtype);
    if (kind == 1 && nd >= 2) {
      std::vector<int64_t> inv(static_cast<size_t>(nd));
      for (int64_t i = 0; i < nd; ++i) inv[static_cast<size_t>(perm[static_cast<size_t>(i)])] = i;
      return st::permute(base, inv);
    }
    if (kind == 2 && nd >= 1) return st::slice(base, nd - 1, 0, std::nullopt, 2);
    if (kind == 3 && nd >= 1 && shape[0] > 1) {
      std::vector<int64_t> one = shape;
      one[0] = 1;
      Tensor b = make(std::vector<double>(
                          vals.begin(), vals.begin() +
                                            [&] {
                                              int64_t m = 1;
                                              for (int64_t s : one) m *= s;
                                              return m;
                                            }()),
                      one, dtype);
      return st::expand(b, shape);
    }
    return base;
  }

 private:
  std::mt19937 rng_;
};

const std::vector<ScalarType> kArith = {ScalarType::Float,   ScalarType::Double, ScalarType::Int,
                                        ScalarType::Long,    ScalarType::Short,  ScalarType::Half,
                                        ScalarType::BFloat16};

double tol_for(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16 ? 2e-2 : 1e-6;
}

TEST(NativeProperty, BinaryArithmeticMatchesReference) {
  Gen g(1234);
  for (int iter = 0; iter < 300; ++iter) {
    const std::vector<int64_t> out_shape = g.shape();
    const ScalarType ta = kArith[static_cast<size_t>(g.uniform(0, 6))];
    const ScalarType tb = kArith[static_cast<size_t>(g.uniform(0, 6))];
    Tensor a = g.tensor(g.broadcastable(out_shape), ta);
    Tensor b = g.tensor(g.broadcastable(out_shape), tb);
    Tensor sum = st::add(a, b, 2);
    Tensor prod = st::mul(a, b);
    Tensor mx = st::maximum(a, b);
    Tensor lt = st::lt(a, b);
    const std::vector<int64_t> s = shape(sum);
    EXPECT_EQ(sum.dtype(), st::result_type(a, b));
    EXPECT_EQ(lt.dtype(), ScalarType::Bool);
    const double tol = tol_for(sum.dtype());
    for_each_index(s, [&](const std::vector<int64_t>& idx) {
      const double x = at(a, idx), y = at(b, idx);
      EXPECT_NEAR(at(sum, idx), x + 2 * y, tol * (1 + std::abs(x + 2 * y)));
      EXPECT_NEAR(at(prod, idx), x * y, tol * (1 + std::abs(x * y)));
      EXPECT_NEAR(at(mx, idx), std::max(x, y), tol * (1 + std::abs(std::max(x, y))));
      EXPECT_EQ(at(lt, idx), x < y ? 1.0 : 0.0);
    });
  }
}

TEST(NativeProperty, UnaryAndCopyMatchReference) {
  Gen g(99);
  for (int iter = 0; iter < 200; ++iter) {
    const std::vector<int64_t> s = g.shape();
    const ScalarType t = kArith[static_cast<size_t>(g.uniform(0, 6))];
    Tensor a = g.tensor(s, t);
    Tensor e = st::exp(a);
    Tensor n = st::neg(a);
    Tensor dst = g.tensor(s, kArith[static_cast<size_t>(g.uniform(0, 6))]);
    if (!dst.is_non_overlapping_and_dense() && s.size() && s[0] > 1 && dst.stride(0) == 0) {
      dst = st::contiguous(dst);
    }
    st::copy_(dst, a);
    const double tol = tol_for(e.dtype());
    for_each_index(s, [&](const std::vector<int64_t>& idx) {
      const double x = at(a, idx);
      EXPECT_NEAR(at(e, idx), std::exp(x), tol * (1 + std::exp(x)));
      EXPECT_EQ(at(n, idx), -x);
      const double want = torch::headeronly::isIntegralType(dst.dtype(), false) ? std::trunc(x) : x;
      EXPECT_NEAR(at(dst, idx), want, std::abs(want) * 1e-2 + 1e-9);
    });
  }
}

TEST(NativeProperty, ReductionsMatchReference) {
  Gen g(7);
  for (int iter = 0; iter < 200; ++iter) {
    const std::vector<int64_t> s = g.shape();
    const ScalarType t = kArith[static_cast<size_t>(g.uniform(0, 6))];
    Tensor a = g.tensor(s, t);
    const int64_t nd = static_cast<int64_t>(s.size());
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < nd; ++d) {
      if (g.uniform(0, 1)) dims.push_back(g.uniform(0, 1) ? d : d - nd);
    }
    const bool keepdim = g.uniform(0, 1) == 1;
    Tensor sm = st::sum(a, dims, keepdim);
    std::vector<bool> reduced(static_cast<size_t>(nd), dims.empty());
    for (int64_t d : dims) reduced[static_cast<size_t>(d < 0 ? d + nd : d)] = true;
    // Reference: accumulate every input element into its output slot.
    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < nd; ++d) {
      if (!reduced[static_cast<size_t>(d)])
        out_shape.push_back(s[static_cast<size_t>(d)]);
      else if (keepdim)
        out_shape.push_back(1);
    }
    EXPECT_EQ(shape(sm), out_shape);
    int64_t nout = 1;
    for (int64_t v : out_shape) nout *= v;
    std::vector<double> ref(static_cast<size_t>(nout), 0.0);
    std::vector<double> ref_max(static_cast<size_t>(nout), -1e300);
    for_each_index(s, [&](const std::vector<int64_t>& idx) {
      int64_t o = 0;
      for (int64_t d = 0; d < nd; ++d) {
        if (reduced[static_cast<size_t>(d)]) continue;
        o = o * s[static_cast<size_t>(d)] + idx[static_cast<size_t>(d)];
      }
      ref[static_cast<size_t>(o)] += at(a, idx);
      ref_max[static_cast<size_t>(o)] = std::max(ref_max[static_cast<size_t>(o)], at(a, idx));
    });
    expect_close(values(sm), ref, t == ScalarType::Half || t == ScalarType::BFloat16 ? 5e-2 : 1e-6);
    bool any_empty = false;
    for (int64_t d = 0; d < nd; ++d)
      any_empty = any_empty || (reduced[static_cast<size_t>(d)] && s[static_cast<size_t>(d)] == 0);
    if (!any_empty && nout > 0) {
      expect_close(values(st::amax(a, dims, keepdim)), ref_max, 1e-6);
    }
  }
}

TEST(NativeProperty, WhereAndClampMatchReference) {
  Gen g(5);
  for (int iter = 0; iter < 150; ++iter) {
    const std::vector<int64_t> s = g.shape();
    Tensor c = g.tensor(g.broadcastable(s), ScalarType::Bool);
    Tensor a = g.tensor(g.broadcastable(s), ScalarType::Float);
    Tensor b = g.tensor(g.broadcastable(s), ScalarType::Long);
    Tensor w = st::where(c, a, b);
    Tensor cl = st::clamp(a, -2, 3);
    for_each_index(shape(w), [&](const std::vector<int64_t>& idx) {
      EXPECT_EQ(at(w, idx), at(c, idx) != 0 ? at(a, idx) : at(b, idx));
    });
    for_each_index(shape(cl), [&](const std::vector<int64_t>& idx) {
      EXPECT_EQ(at(cl, idx), std::min(3.0, std::max(-2.0, at(a, idx))));
    });
  }
}

}  // namespace
