// The per-ISA reduction loops agree bit for bit across the variants the CPU
// supports and with plain scalar loops (up to the reassociation of
// floating sums), on every tail length and on unaligned pointers; max/min
// propagate NaN wherever it sits; int64 sums and products wrap; the
// stride-2 gather packs exactly the stretch's elements; dot products
// match a double reference; int64 running sums wrap.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <st/native/loops.h>

#include "native/cpu/vec_reduce_kernels.h"

namespace {

using st::native::cpu::one_run;
using st::native::cpu::VecReduceKernels;

std::vector<const VecReduceKernels*> variants() {
  std::vector<const VecReduceKernels*> v;
  for (const char* isa : {"default", "avx2", "avx512", "avx512_256"}) {
    if (const VecReduceKernels* k = st::native::cpu::vec_reduce_kernels_for(isa)) v.push_back(k);
  }
  return v;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }

const int64_t kLengths[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1000, 4099};

TEST(NativeVecReduceKernels, RunsMatchScalarLoops) {
  std::mt19937 g(7);
  std::uniform_real_distribution<float> d(-2, 2);
  std::uniform_int_distribution<int64_t> di(std::numeric_limits<int64_t>::min(),
                                            std::numeric_limits<int64_t>::max());
  ASSERT_FALSE(variants().empty());
  EXPECT_STREQ(variants()[0]->isa, "default");
  for (int64_t n : kLengths) {
    SCOPED_TRACE(n);
    std::vector<float> f(static_cast<size_t>(n) + 1);
    std::vector<int64_t> l(static_cast<size_t>(n) + 1);
    for (auto& x : f) x = d(g);
    for (auto& x : l) x = di(g);  // sums and products overflow: they must wrap
    std::vector<double> dd(f.begin(), f.end());
    // +1: unaligned starts
    const float* pf = f.data() + 1;
    const double* pd = dd.data() + 1;
    const int64_t* pl = l.data() + 1;
    double prod = 1, sabs = 0, ssq = 0, sdev = 0, dev = 0, mx = -INFINITY, mn = INFINITY;
    uint64_t lsum = 0, lprod = 1;
    int64_t lmax = std::numeric_limits<int64_t>::min(), lmin = std::numeric_limits<int64_t>::max();
    for (int64_t i = 0; i < n; ++i) {
      const double v = pf[i];
      prod *= v;
      sabs += std::fabs(v);
      ssq += v * v;
      sdev += (v - 0.25) * (v - 0.25);
      dev += v - 0.25;
      mx = std::max(mx, v);
      mn = std::min(mn, v);
      lsum += static_cast<uint64_t>(pl[i]);
      lprod *= static_cast<uint64_t>(pl[i]);
      lmax = std::max(lmax, pl[i]);
      lmin = std::min(lmin, pl[i]);
    }
    const VecReduceKernels* base = variants()[0];
    for (const VecReduceKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      const double tol = 1e-12 * (1 + static_cast<double>(n));
      EXPECT_NEAR(k->prod_f32(pf, n), prod, tol);
      EXPECT_NEAR(k->prod_f64(pd, n), prod, tol);
      EXPECT_NEAR(k->sum_abs_f32(pf, n), sabs, tol * (1 + sabs));
      EXPECT_NEAR(k->sum_abs_f64(pd, n), sabs, tol * (1 + sabs));
      EXPECT_NEAR(k->sum_sq_f32(pf, n), ssq, tol * (1 + ssq));
      EXPECT_NEAR(k->sum_sq_f64(pd, n), ssq, tol * (1 + ssq));
      double sq = -1;
      EXPECT_NEAR(k->sum_dev_f32(pf, n, 0.25, &sq), dev, tol * (1 + std::fabs(dev)));
      EXPECT_NEAR(sq, sdev, tol * (1 + sdev));
      EXPECT_NEAR(k->sum_sqdev_f64(pd, n, 0.25), sdev, tol * (1 + sdev));
      EXPECT_EQ(static_cast<double>(one_run(k->max_f32, pf, n)), mx);
      EXPECT_EQ(static_cast<double>(one_run(k->min_f32, pf, n)), mn);
      EXPECT_EQ(one_run(k->max_f64, pd, n), mx);
      EXPECT_EQ(one_run(k->min_f64, pd, n), mn);
      EXPECT_EQ(k->sum_i64(pl, n), lsum);
      EXPECT_EQ(k->prod_i64(pl, n), lprod);
      EXPECT_EQ(one_run(k->max_i64, pl, n), lmax);
      EXPECT_EQ(one_run(k->min_i64, pl, n), lmin);
      // same lanes, same order: identical across ISAs
      EXPECT_TRUE(same_bits(k->prod_f32(pf, n), base->prod_f32(pf, n)));
      EXPECT_TRUE(same_bits(k->sum_sq_f64(pd, n), base->sum_sq_f64(pd, n)));
      double sq_base = 0;
      EXPECT_TRUE(
          same_bits(k->sum_dev_f32(pf, n, 0.25, &sq), base->sum_dev_f32(pf, n, 0.25, &sq_base)));
      EXPECT_TRUE(same_bits(sq, sq_base));
    }
  }
}

// The order a floating run's lanes fold in, spelled out in scalar code:
// element i + 8q + j of each step of 32 goes to lane j of group q; the
// groups combine as (g0 . g1) . (g2 . g3) per lane; the eight lanes as
// ((l0 . l1) . (l2 . l3)) . ((l4 . l5) . (l6 . l7)); the tail then folds
// into the result one element at a time. Every variant gives these bits,
// so a result does not depend on the CPU or on how the lanes are
// combined in registers.
template <typename T, typename Fold, typename Op>
double model_run(const T* x, int64_t n, double id, const Fold& fold, const Op& op) {
  double a[4][8];
  for (auto& q : a) {
    for (double& v : q) v = id;
  }
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    for (int q = 0; q < 4; ++q) {
      for (int j = 0; j < 8; ++j) a[q][j] = fold(a[q][j], static_cast<double>(x[i + 8 * q + j]));
    }
  }
  double l[8];
  for (int j = 0; j < 8; ++j) l[j] = op(op(a[0][j], a[1][j]), op(a[2][j], a[3][j]));
  double r = op(op(op(l[0], l[1]), op(l[2], l[3])), op(op(l[4], l[5]), op(l[6], l[7])));
  for (; i < n; ++i) r = fold(r, static_cast<double>(x[i]));
  return r;
}

TEST(NativeVecReduceKernels, FloatRunsFoldTheirLanesInTheDocumentedOrder) {
  std::mt19937 g(11);
  std::uniform_real_distribution<float> near_one(0.75f, 1.25f), signed_values(-3, 3);
  const auto mul = [](double a, double b) { return a * b; };
  const auto add = [](double a, double b) { return a + b; };
  const auto abs_fold = [](double a, double v) { return a + std::fabs(v); };
  const auto sq_fold = [](double a, double v) { return a + v * v; };
  for (int64_t n : kLengths) {
    SCOPED_TRACE(n);
    std::vector<float> pf(static_cast<size_t>(n)), sf(static_cast<size_t>(n));
    for (auto& x : pf) x = near_one(g);  // products of thousands stay in range
    for (auto& x : sf) x = signed_values(g);
    const std::vector<double> pd(pf.begin(), pf.end()), sd(sf.begin(), sf.end());
    for (const VecReduceKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      EXPECT_TRUE(same_bits(k->prod_f32(pf.data(), n), model_run(pf.data(), n, 1.0, mul, mul)));
      EXPECT_TRUE(same_bits(k->prod_f64(pd.data(), n), model_run(pd.data(), n, 1.0, mul, mul)));
      EXPECT_TRUE(
          same_bits(k->sum_abs_f32(sf.data(), n), model_run(sf.data(), n, 0.0, abs_fold, add)));
      EXPECT_TRUE(
          same_bits(k->sum_abs_f64(sd.data(), n), model_run(sd.data(), n, 0.0, abs_fold, add)));
      EXPECT_TRUE(
          same_bits(k->sum_sq_f32(sf.data(), n), model_run(sf.data(), n, 0.0, sq_fold, add)));
      EXPECT_TRUE(
          same_bits(k->sum_sq_f64(sd.data(), n), model_run(sd.data(), n, 0.0, sq_fold, add)));
    }
  }
}

// Float products accumulate in double lanes: each step's rounding is a
// double's, so a run of n factors is within (n - 1) 2^-53 (relative) of the
// exact product, wherever float's own range would overflow or underflow
// (huge and tiny factors, float denormals). Zeros, infinities and NaN give
// the IEEE result (0 * inf = NaN).
TEST(NativeVecReduceKernels, FloatProductsAreDoubleProducts) {
  std::mt19937 g(5);
  std::uniform_real_distribution<float> scale(-0.4f, 0.4f);
  std::uniform_int_distribution<int> coin(0, 1);
  for (int64_t n : kLengths) {
    SCOPED_TRACE(n);
    // Factors near 1 of either sign, with a few huge (2^100), tiny (2^-100)
    // and denormal (2^-140) ones at random places: every partial product,
    // in whatever order the lanes take the factors, stays within double's
    // range (|log2| <= 900 and a random walk of n steps of at most 0.4),
    // while float's range is left after two factors.
    std::vector<float> f(static_cast<size_t>(n) + 1);
    for (auto& v : f) v = std::exp2(scale(g)) * (coin(g) ? -1.0f : 1.0f);
    std::uniform_int_distribution<size_t> at(1, f.size() - 1);
    if (n > 0) {
      for (int j = 0; j < 8; ++j) f[at(g)] = std::exp2(scale(g)) * 0x1p100f;
      for (int j = 0; j < 4; ++j) f[at(g)] = -std::exp2(scale(g)) * 0x1p-100f;
      for (int j = 0; j < 3; ++j) f[at(g)] = std::exp2(scale(g)) * 0x1p-140f;
    }
    const float* p = f.data() + 1;  // unaligned
    double want = 1;
    for (int64_t i = 0; i < n; ++i) want *= static_cast<double>(p[i]);
    const double tol = std::fabs(want) * static_cast<double>(n + 1) * 0x1p-52;
    for (const VecReduceKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      EXPECT_NEAR(k->prod_f32(p, n), want, tol);
    }
    if (n < 2) continue;
    // one zero, one infinity, one NaN, and a zero with an infinity
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const VecReduceKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      for (int64_t at : {int64_t{0}, n / 2, n - 1}) {
        std::vector<float> z(p, p + n), i(p, p + n), q(p, p + n), zi(p, p + n);
        z[static_cast<size_t>(at)] = 0.0f;
        i[static_cast<size_t>(at)] = -inf;
        q[static_cast<size_t>(at)] = nan;
        zi[static_cast<size_t>(at)] = inf;
        zi[static_cast<size_t>((at + 1) % n)] = 0.0f;
        double zr = 1, ir = 1;
        for (int64_t j = 0; j < n; ++j) {
          zr *= static_cast<double>(z[static_cast<size_t>(j)]);
          ir *= static_cast<double>(i[static_cast<size_t>(j)]);
        }
        EXPECT_EQ(k->prod_f32(z.data(), n), zr);  // signed zero
        EXPECT_EQ(std::signbit(k->prod_f32(z.data(), n)), std::signbit(zr));
        EXPECT_EQ(k->prod_f32(i.data(), n), ir);  // signed infinity
        EXPECT_TRUE(std::isnan(k->prod_f32(q.data(), n)));
        EXPECT_TRUE(std::isnan(k->prod_f32(zi.data(), n)));
      }
    }
  }
}

// The NaN that comes out is the input's own (its payload kept), whether
// the loop met it in a vector or in the tail.
TEST(NativeVecReduceKernels, MaxMinPropagateNanAtEveryPosition) {
  const float nan = [] {
    const uint32_t bits = 0x7fc01234u;
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
  }();
  auto bits_of = [](float f) {
    uint32_t b;
    std::memcpy(&b, &f, sizeof(b));
    return b;
  };
  for (const VecReduceKernels* k : variants()) {
    SCOPED_TRACE(k->isa);
    for (int64_t n : {1, 5, 16, 17, 64, 100}) {
      for (int64_t at = 0; at < n; ++at) {
        std::vector<float> f(static_cast<size_t>(n), 1.0f);
        f[static_cast<size_t>(n - 1)] = 3.0f;
        f[static_cast<size_t>(at)] = nan;
        std::vector<double> dd(f.begin(), f.end());
        EXPECT_EQ(bits_of(one_run(k->max_f32, f.data(), n)), 0x7fc01234u) << n << " " << at;
        EXPECT_EQ(bits_of(one_run(k->min_f32, f.data(), n)), 0x7fc01234u) << n << " " << at;
        EXPECT_TRUE(std::isnan(one_run(k->max_f64, dd.data(), n))) << n << " " << at;
        EXPECT_TRUE(std::isnan(one_run(k->min_f64, dd.data(), n))) << n << " " << at;
        std::vector<float> acc(static_cast<size_t>(n), 2.0f);
        k->rows_max_f32(acc.data(), f.data(), n, 1, 0);
        EXPECT_TRUE(std::isnan(acc[static_cast<size_t>(at)]));
        // a NaN accumulator stays NaN
        k->rows_min_f32(acc.data(), std::vector<float>(static_cast<size_t>(n), -5.0f).data(), n, 1,
                        0);
        EXPECT_TRUE(std::isnan(acc[static_cast<size_t>(at)]));
        if (at + 1 < n) {
          EXPECT_EQ(acc[static_cast<size_t>(at + 1)], -5.0f);
        }
      }
    }
    // an empty run is the identity
    EXPECT_EQ(one_run(k->max_f32, static_cast<const float*>(nullptr), 0), -INFINITY);
    EXPECT_EQ(one_run(k->min_f64, static_cast<const double*>(nullptr), 0), INFINITY);
    EXPECT_EQ(one_run(k->max_i64, static_cast<const int64_t*>(nullptr), 0),
              std::numeric_limits<int64_t>::min());
    EXPECT_EQ(one_run(k->min_i64, static_cast<const int64_t*>(nullptr), 0),
              std::numeric_limits<int64_t>::max());
  }
}

// The row calls give each row the bits of the same call on that row alone,
// whatever the number of rows (whole groups folded together, the rest one
// by one) and the row length (0 to 4, 8 and 16 whole vectors, unrolled,
// and other lengths, at every variant's width): zeros of both signs make the lane order visible,
// and a NaN in some rows (in a vector or in the tail) sends their group down the sticky path.
// Values are checked against a scalar loop too.
TEST(NativeVecReduceKernels, MaxMinRowsKeepEachRowsBits) {
  std::mt19937 g(11);
  std::uniform_int_distribution<int> pick(0, 5);
  std::uniform_int_distribution<int64_t> wide(std::numeric_limits<int64_t>::min(),
                                              std::numeric_limits<int64_t>::max());
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float values[] = {0.0f, -0.0f, 1.5f, -2.0f, 0.0f, -0.0f};
  for (int64_t n : {0, 1, 7, 8, 9, 12, 16, 17, 27, 32, 33, 64, 100, 128, 256}) {
    for (int64_t count : {1, 4, 8, 16, 17, 40}) {
      SCOPED_TRACE(std::to_string(n) + " x " + std::to_string(count));
      const size_t total = static_cast<size_t>(n * count) + 1;
      std::vector<float> f(total);
      std::vector<int64_t> l(total);
      for (size_t i = 0; i < total; ++i) {
        f[i] = values[pick(g)];
        l[i] = pick(g) == 0 ? wide(g) : pick(g) - 3;
      }
      for (int64_t r = 3; r < count && n > 0; r += 7) {
        f[1 + static_cast<size_t>(r * n + (r * 5) % n)] = nan;
        // A second NaN, of another sign, last: which one a row returns is
        // one_run's choice in every call.
        if (r % 2 == 1) f[static_cast<size_t>((r + 1) * n)] = -nan;
      }
      std::vector<double> d(f.begin(), f.end());
      std::vector<const float*> pf;
      std::vector<const double*> pd;
      std::vector<const int64_t*> pl;
      for (int64_t r = 0; r < count; ++r) {  // unaligned rows, one after another
        pf.push_back(f.data() + 1 + r * n);
        pd.push_back(d.data() + 1 + r * n);
        pl.push_back(l.data() + 1 + r * n);
      }
      auto bits = [](auto v) {
        uint64_t b = 0;
        std::memcpy(&b, &v, sizeof(v));
        return b;
      };
      auto check = [&](auto fn, auto& ptrs, bool is_max) {
        using T = std::remove_const_t<
            std::remove_pointer_t<typename std::remove_reference_t<decltype(ptrs)>::value_type>>;
        std::vector<T> out(static_cast<size_t>(count));
        fn(out.data(), ptrs.data(), count, n);
        for (int64_t r = 0; r < count; ++r) {
          const T* row = ptrs[static_cast<size_t>(r)];
          const T got = out[static_cast<size_t>(r)];
          ASSERT_EQ(bits(got), bits(one_run(fn, row, n))) << "row " << r;
          bool any_nan = false;
          T want = is_max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
          if constexpr (std::is_floating_point_v<T>) {
            want =
                is_max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
          }
          for (int64_t i = 0; i < n; ++i) {
            any_nan |= row[i] != row[i];
            if (row[i] == row[i]) want = is_max ? std::max(want, row[i]) : std::min(want, row[i]);
          }
          if (any_nan) {
            EXPECT_NE(got, got) << "row " << r;
          } else {
            EXPECT_EQ(got, want) << "row " << r;
          }
        }
      };
      for (const VecReduceKernels* k : variants()) {
        SCOPED_TRACE(k->isa);
        check(k->max_f32, pf, true);
        check(k->min_f32, pf, false);
        check(k->max_f64, pd, true);
        check(k->min_f64, pd, false);
        check(k->max_i64, pl, true);
        check(k->min_i64, pl, false);
      }
    }
  }
}

TEST(NativeVecReduceKernels, RowsMatchScalarLoops) {
  std::mt19937 g(11);
  std::uniform_real_distribution<float> d(-2, 2);
  for (int64_t n : kLengths) {
    SCOPED_TRACE(n);
    std::vector<float> x(static_cast<size_t>(n) + 1);
    for (auto& v : x) v = d(g);
    std::vector<double> xd(x.begin(), x.end());
    std::vector<int64_t> xl(static_cast<size_t>(n) + 1);
    for (size_t i = 0; i < xl.size(); ++i) xl[i] = (int64_t{1} << 62) + static_cast<int64_t>(i);
    for (const VecReduceKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      std::vector<double> a(static_cast<size_t>(n) + 1, 1.5), m(static_cast<size_t>(n) + 1, 1.5);
      std::vector<double> a64(a), m64(a);
      std::vector<float> mx(static_cast<size_t>(n) + 1, 0.5f), mn(mx);
      std::vector<double> mxd(static_cast<size_t>(n) + 1, 0.5), mnd(mxd);
      std::vector<int64_t> al(static_cast<size_t>(n) + 1, 3), ml(al), mxl(al), mnl(al);
      k->rows_add_f32(a.data() + 1, x.data() + 1, n, 1, 0);
      k->rows_mul_f32(m.data() + 1, x.data() + 1, n, 1, 0);
      k->rows_add_f64(a64.data() + 1, xd.data() + 1, n, 1, 0);
      k->rows_mul_f64(m64.data() + 1, xd.data() + 1, n, 1, 0);
      k->rows_max_f32(mx.data() + 1, x.data() + 1, n, 1, 0);
      k->rows_min_f32(mn.data() + 1, x.data() + 1, n, 1, 0);
      k->rows_max_f64(mxd.data() + 1, xd.data() + 1, n, 1, 0);
      k->rows_min_f64(mnd.data() + 1, xd.data() + 1, n, 1, 0);
      k->rows_add_i64(al.data() + 1, xl.data() + 1, n, 1, 0);
      k->rows_mul_i64(ml.data() + 1, xl.data() + 1, n, 1, 0);
      k->rows_max_i64(mxl.data() + 1, xl.data() + 1, n, 1, 0);
      k->rows_min_i64(mnl.data() + 1, xl.data() + 1, n, 1, 0);
      for (int64_t i = 1; i <= n; ++i) {
        const double v = x[static_cast<size_t>(i)];
        const int64_t w = xl[static_cast<size_t>(i)];
        EXPECT_EQ(a[static_cast<size_t>(i)], 1.5 + v);
        EXPECT_EQ(m[static_cast<size_t>(i)], 1.5 * v);
        EXPECT_EQ(a64[static_cast<size_t>(i)], 1.5 + v);
        EXPECT_EQ(m64[static_cast<size_t>(i)], 1.5 * v);
        EXPECT_EQ(mx[static_cast<size_t>(i)], std::max(0.5f, x[static_cast<size_t>(i)]));
        EXPECT_EQ(mn[static_cast<size_t>(i)], std::min(0.5f, x[static_cast<size_t>(i)]));
        EXPECT_EQ(mxd[static_cast<size_t>(i)], std::max(0.5, v));
        EXPECT_EQ(mnd[static_cast<size_t>(i)], std::min(0.5, v));
        EXPECT_EQ(static_cast<uint64_t>(al[static_cast<size_t>(i)]),
                  uint64_t{3} + static_cast<uint64_t>(w));
        EXPECT_EQ(static_cast<uint64_t>(ml[static_cast<size_t>(i)]),
                  uint64_t{3} * static_cast<uint64_t>(w));
        EXPECT_EQ(mxl[static_cast<size_t>(i)], w);
        EXPECT_EQ(mnl[static_cast<size_t>(i)], 3);
      }
      // nothing outside [0, n) is written
      EXPECT_EQ(a[0], 1.5);
      EXPECT_EQ(mx[0], 0.5f);
      EXPECT_EQ(al[0], 3);
    }
  }
}

// Every other element, packed, reading nothing past the stretch's last
// element (the input ends exactly there: ASan would see an overrun).
// One call over many rows folds each accumulator in row order: the same
// bits as one call per row (the register blocks, the one-register loop and
// the element tail alike), with a row stride wider than the row, and
// nothing written past n. NaN rows check the max/min propagation on the
// way.
// Every column of the row loops against a scalar fold in row order, on
// every width up to past two of the widest ISA's register blocks (16
// registers of 8 doubles): the full blocks, a last block of each smaller
// number of registers, and the element tail each fold their own columns
// and only those.
TEST(NativeVecReduceKernels, RowsFoldEveryColumnInRowOrder) {
  std::mt19937 g(17);
  std::uniform_real_distribution<float> d(0.5f, 2.0f);
  for (int64_t n = 0; n <= 2 * 16 * 8 + 9; ++n) {
    for (int64_t rows : {1, 3, 8}) {
      SCOPED_TRACE(::testing::Message() << "n " << n << " rows " << rows);
      const int64_t stride = n + 3;
      const size_t total = static_cast<size_t>(stride * rows);
      std::vector<float> x(total);
      for (auto& v : x) v = d(g) * (g() % 2 ? 1.0f : -1.0f);
      if (n > 0 && rows > 1) x[static_cast<size_t>(stride + n - 1)] = std::nanf("");
      std::vector<double> xd(x.begin(), x.end());
      std::vector<int64_t> xl(total);
      for (size_t i = 0; i < total; ++i) xl[i] = static_cast<int64_t>(i * 0x9e3779b97f4a7c15ULL);
      for (const VecReduceKernels* k : variants()) {
        SCOPED_TRACE(k->isa);
        // acc[j] starts at init + j (so a column written to another's place
        // shows); one guard element on each side stays untouched.
        const auto check = [&](auto fn, auto init, const auto& src, auto op) {
          using A = decltype(init);
          std::vector<A> acc(static_cast<size_t>(n) + 2);
          for (size_t j = 0; j < acc.size(); ++j) acc[j] = init + static_cast<A>(j);
          std::vector<A> want(acc);
          for (int64_t j = 0; j < n; ++j) {
            for (int64_t r = 0; r < rows; ++r) {
              want[static_cast<size_t>(j + 1)] =
                  op(want[static_cast<size_t>(j + 1)], src[static_cast<size_t>(r * stride + j)]);
            }
          }
          fn(acc.data() + 1, src.data(), n, rows, stride);
          for (size_t j = 0; j < acc.size(); ++j) {
            EXPECT_EQ(std::memcmp(&acc[j], &want[j], sizeof(A)), 0)
                << "at " << j << ": " << acc[j] << " vs " << want[j];
          }
        };
        const auto mul = [](double a, auto v) { return a * static_cast<double>(v); };
        const auto add = [](double a, auto v) { return a + static_cast<double>(v); };
        const auto wrap_mul = [](int64_t a, int64_t v) {
          return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(v));
        };
        const auto wrap_add = [](int64_t a, int64_t v) {
          return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(v));
        };
        // NaN-sticky max and min, as the loops pick (the first NaN stays)
        const auto max = [](auto a, auto v) { return a != a ? a : (v > a || v != v ? v : a); };
        const auto min = [](auto a, auto v) { return a != a ? a : (v < a || v != v ? v : a); };
        check(k->rows_mul_f32, 1.5, x, mul);
        check(k->rows_mul_f64, 1.5, xd, mul);
        check(k->rows_add_f64, 0.25, xd, add);
        check(k->rows_max_f32, -1.0f, x, max);
        check(k->rows_min_f32, 1.0f, x, min);
        check(k->rows_max_f64, -1.0, xd, max);
        check(k->rows_min_f64, 1.0, xd, min);
        check(k->rows_add_i64, int64_t{3}, xl, wrap_add);
        check(k->rows_mul_i64, int64_t{3}, xl, wrap_mul);
        check(k->rows_max_i64, int64_t{0}, xl, max);
        check(k->rows_min_i64, int64_t{0}, xl, min);
      }
    }
  }
}

TEST(NativeVecReduceKernels, ManyRowsMatchOneRowAtATime) {
  std::mt19937 g(5);
  std::uniform_real_distribution<float> d(-2, 2);
  for (int64_t n : {1, 7, 8, 31, 32, 33, 64, 65, 100}) {
    for (int64_t rows : {1, 2, 5, 17, 40}) {
      SCOPED_TRACE(::testing::Message() << "n " << n << " rows " << rows);
      const int64_t stride = n + 3;
      const size_t total = static_cast<size_t>(stride * rows);
      std::vector<float> x(total);
      for (auto& v : x) v = d(g);
      x[static_cast<size_t>((rows - 1) * stride + n / 2)] = std::numeric_limits<float>::quiet_NaN();
      std::vector<double> xd(x.begin(), x.end());
      std::vector<int64_t> xl(total);
      for (size_t i = 0; i < total; ++i) {
        xl[i] = static_cast<int64_t>(i * 0x9e3779b97f4a7c15ULL);
      }
      for (const VecReduceKernels* k : variants()) {
        SCOPED_TRACE(k->isa);
        // (group: the rows per call of the reference: one, or
        // rows_add_f32's whole groups)
        const auto check = [&](auto fn, auto init, const auto& src, int64_t group = 1) {
          using A = decltype(init);
          std::vector<A> many(static_cast<size_t>(n) + 1, init), one(many);
          fn(many.data(), src.data(), n, rows, stride);
          for (int64_t r = 0; r < rows; r += group) {
            fn(one.data(), src.data() + r * stride, n, std::min(group, rows - r), stride);
          }
          for (size_t j = 0; j < many.size(); ++j) {
            if (many[j] != many[j]) {
              EXPECT_TRUE(one[j] != one[j]) << "at " << j;
            } else {
              EXPECT_EQ(many[j], one[j]) << "at " << j;
            }
          }
        };
        check(k->rows_add_f32, 0.25, x, st::native::cpu::kSumRowsGroup);
        check(k->rows_mul_f32, 1.5, x);
        check(k->rows_max_f32, -1.0f, x);
        check(k->rows_min_f32, 1.0f, x);
        check(k->rows_add_f64, 0.25, xd);
        check(k->rows_mul_f64, 1.5, xd);
        check(k->rows_max_f64, -1.0, xd);
        check(k->rows_min_f64, 1.0, xd);
        check(k->rows_add_i64, int64_t{3}, xl);
        check(k->rows_mul_i64, int64_t{3}, xl);
        check(k->rows_max_i64, int64_t{0}, xl);
        check(k->rows_min_i64, int64_t{0}, xl);
      }
    }
  }
}

// The value-and-index rows against a scalar model, bit for bit, in every
// variant: on every tail of outputs, unaligned, with ties (the earlier
// row stays), -inf, -0 against +0, and columns holding one or two NaNs of
// either sign (the first stays); accumulators that start better than every
// row keep their index untouched, and the indices count from first.
template <typename T>
void check_index_rows(const char* isa,
                      void (*fn)(T*, int64_t*, const T*, int64_t, int64_t, int64_t, int64_t),
                      bool is_max) {
  std::mt19937 g(29);
  std::uniform_int_distribution<int> small(-3, 3);  // many ties
  const T nan = std::numeric_limits<T>::has_quiet_NaN ? std::numeric_limits<T>::quiet_NaN() : 0;
  const auto model_takes = [&](T v, T x) {
    bool t = is_max ? x > v : x < v;
    if (std::numeric_limits<T>::has_quiet_NaN) t = t || (x != x && v == v);
    return t;
  };
  for (int64_t n : kLengths) {
    for (int64_t rows : {1, 2, 5, 37}) {
      SCOPED_TRACE(::testing::Message() << isa << " n " << n << " rows " << rows);
      const int64_t stride = n + 5;
      std::vector<T> x(static_cast<size_t>(stride * rows + 1));
      for (auto& e : x) e = static_cast<T>(small(g));
      if constexpr (std::numeric_limits<T>::has_quiet_NaN) {
        for (int64_t j = 0; j < n; ++j) {
          T* col = x.data() + 1 + j;
          if (j % 5 == 1)
            col[(j % rows) * stride] = std::copysign(nan, static_cast<T>(j % 2 ? -1 : 1));
          if (j % 5 == 2 && rows > 1) {  // two NaNs of either sign
            col[(rows / 2) * stride] = -nan;
            col[(rows - 1) * stride] = nan;
          }
          if (j % 5 == 3) col[0] = -std::numeric_limits<T>::infinity();
          if (j % 5 == 4) {
            col[0] = static_cast<T>(-0.0);
            for (int64_t r = 1; r < rows; ++r) col[r * stride] = static_cast<T>(r % 2 ? 0.0 : -0.0);
          }
        }
      }
      const int64_t first = 1000;
      std::vector<T> val(static_cast<size_t>(n) + 1);
      std::vector<int64_t> idx(static_cast<size_t>(n) + 1);
      for (int64_t j = 0; j <= n; ++j) {
        // every third accumulator already beats (or ties) every row
        val[static_cast<size_t>(j)] = j % 3 == 0 ? static_cast<T>(is_max ? 3 : -3) : x[1 + j];
        idx[static_cast<size_t>(j)] = j % 3 == 0 ? -7 : first;
      }
      std::vector<T> want_val(val);
      std::vector<int64_t> want_idx(idx);
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t r = 0; r < rows; ++r) {
          const T e = x[static_cast<size_t>(1 + r * stride + j)];
          if (model_takes(want_val[static_cast<size_t>(j + 1)], e)) {
            want_val[static_cast<size_t>(j + 1)] = e;
            want_idx[static_cast<size_t>(j + 1)] = first + r;
          }
        }
      }
      fn(val.data() + 1, idx.data() + 1, x.data() + 1, n, rows, stride, first);
      for (size_t j = 0; j < val.size(); ++j) {
        EXPECT_EQ(std::memcmp(&val[j], &want_val[j], sizeof(T)), 0) << "value at " << j;
        EXPECT_EQ(idx[j], want_idx[j]) << "index at " << j;
      }
    }
  }
}

TEST(NativeVecReduceKernels, IndexRowsKeepTheFirstOccurrence) {
  for (const VecReduceKernels* k : variants()) {
    check_index_rows<float>(k->isa, k->rows_argmax_f32, true);
    check_index_rows<float>(k->isa, k->rows_argmin_f32, false);
    check_index_rows<double>(k->isa, k->rows_argmax_f64, true);
    check_index_rows<double>(k->isa, k->rows_argmin_f64, false);
    check_index_rows<int64_t>(k->isa, k->rows_argmax_i64, true);
    check_index_rows<int64_t>(k->isa, k->rows_argmin_i64, false);
  }
}

// rows_add_f32's order, exactly: groups of kSumRowsGroup rows from the
// first, each output's group summed in float in row order and added to
// its double accumulator. Values spread over many binades, so another
// order or precision would give other bits.
TEST(NativeVecReduceKernels, FloatRowSumsAddFloatGroupsInDouble) {
  std::mt19937 g(9);
  std::uniform_real_distribution<float> d(-1, 1);
  std::uniform_int_distribution<int> e(-20, 20);
  constexpr int64_t kG = st::native::cpu::kSumRowsGroup;
  for (int64_t n : {1, 3, 8, 16, 31, 64, 70}) {
    for (int64_t rows : {int64_t{1}, kG - 1, kG, kG + 1, 3 * kG + 5}) {
      SCOPED_TRACE(::testing::Message() << "n " << n << " rows " << rows);
      const int64_t stride = n + 1;
      std::vector<float> x(static_cast<size_t>(stride * rows));
      for (auto& v : x) v = std::ldexp(d(g), e(g));
      std::vector<double> want(static_cast<size_t>(n), 0.125);
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t r0 = 0; r0 < rows; r0 += kG) {
          float s = x[static_cast<size_t>(r0 * stride + j)];
          for (int64_t r = r0 + 1; r < std::min(rows, r0 + kG); ++r) {
            s += x[static_cast<size_t>(r * stride + j)];
          }
          want[static_cast<size_t>(j)] += static_cast<double>(s);
        }
      }
      for (const VecReduceKernels* k : variants()) {
        SCOPED_TRACE(k->isa);
        std::vector<double> got(static_cast<size_t>(n), 0.125);
        k->rows_add_f32(got.data(), x.data(), n, rows, stride);
        EXPECT_EQ(got, want);
      }
    }
  }
}

TEST(NativeVecReduceKernels, Gather2PacksEveryOtherElement) {
  for (int64_t n : kLengths) {
    SCOPED_TRACE(n);
    const size_t span = n > 0 ? static_cast<size_t>(2 * n - 1) : 0;
    std::vector<uint32_t> x32(span);
    std::vector<uint64_t> x64(span);
    for (size_t i = 0; i < span; ++i) {
      x32[i] = static_cast<uint32_t>(i * 7 + 1);
      x64[i] = (uint64_t{1} << 40) + i;
    }
    for (const VecReduceKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      std::vector<uint32_t> o32(static_cast<size_t>(n) + 1, 0);
      std::vector<uint64_t> o64(static_cast<size_t>(n) + 1, 0);
      k->gather2_32(o32.data(), x32.data(), n);
      k->gather2_64(o64.data(), x64.data(), n);
      for (int64_t j = 0; j < n; ++j) {
        EXPECT_EQ(o32[static_cast<size_t>(j)], x32[static_cast<size_t>(2 * j)]);
        EXPECT_EQ(o64[static_cast<size_t>(j)], x64[static_cast<size_t>(2 * j)]);
      }
      EXPECT_EQ(o32[static_cast<size_t>(n)], 0u);  // nothing written past n
      EXPECT_EQ(o64[static_cast<size_t>(n)], 0u);
    }
  }
}

// The even elements written from a packed block, the odd ones left as
// they were, nothing past the stretch's last element (the output ends
// exactly there: ASan would see an overrun).
TEST(NativeVecReduceKernels, Scatter2WritesEveryOtherElement) {
  for (int64_t n : kLengths) {
    SCOPED_TRACE(n);
    const size_t span = n > 0 ? static_cast<size_t>(2 * n - 1) : 0;
    std::vector<uint32_t> in32(static_cast<size_t>(n));
    std::vector<uint64_t> in64(static_cast<size_t>(n));
    for (size_t j = 0; j < in32.size(); ++j) {
      in32[j] = static_cast<uint32_t>(j * 7 + 1);
      in64[j] = (uint64_t{1} << 40) + j;
    }
    for (const VecReduceKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      std::vector<uint32_t> x32(span, 0xdeadbeefu);
      std::vector<uint64_t> x64(span, ~uint64_t{0});
      k->scatter2_32(x32.data(), in32.data(), n);
      k->scatter2_64(x64.data(), in64.data(), n);
      for (size_t i = 0; i < span; ++i) {
        EXPECT_EQ(x32[i], i % 2 == 0 ? in32[i / 2] : 0xdeadbeefu) << i;
        EXPECT_EQ(x64[i], i % 2 == 0 ? in64[i / 2] : ~uint64_t{0}) << i;
      }
    }
  }
}

// A strided output's write-back takes whole blocks exactly where the
// running table writes stride 2 by vector stores, which only AVX-512's
// masked stores do (Note [Strided operands by blocks] in loops.h).
TEST(NativeVecReduceKernels, StridedOutputBlocksFollowTheWriteBack) {
  for (const VecReduceKernels* k : variants()) {
    EXPECT_EQ(k->scatter2_by_vectors, std::string(k->isa).rfind("avx512", 0) == 0) << k->isa;
  }
  using st::native::detail::kStridedBlock;
  using st::native::detail::kStridedOutBlock;
  using st::native::detail::row_block;
  const int64_t stride2 =
      st::native::cpu::vec_reduce_kernels().scatter2_by_vectors ? kStridedBlock : kStridedOutBlock;
  EXPECT_EQ(row_block(4, 4), kStridedBlock);  // contiguous floats
  EXPECT_EQ(row_block(8, 4), stride2);        // every other float
  EXPECT_EQ(row_block(16, 8), stride2);       // every other double
  EXPECT_EQ(row_block(-8, 4), kStridedOutBlock);
  EXPECT_EQ(row_block(12, 4), kStridedOutBlock);  // every third float
  EXPECT_EQ(row_block(4, 2), kStridedOutBlock);   // every other Half
}

// Dot products against a double reference (float products are rounded to
// float, so the float dot is within a few float roundings of the sum of
// |x y|), the same bits in every variant, on lengths around the float
// loop's 256-product blocks and unaligned starts.
TEST(NativeVecReduceKernels, DotsMatchDoubleReference) {
  std::mt19937 g(11);
  std::uniform_real_distribution<float> d(-2, 2);
  std::vector<int64_t> lengths(std::begin(kLengths), std::end(kLengths));
  for (int64_t n : {255, 256, 257, 511, 512, 513, 2048 + 17}) lengths.push_back(n);
  for (int64_t n : lengths) {
    SCOPED_TRACE(n);
    std::vector<float> fx(static_cast<size_t>(n) + 1), fy(static_cast<size_t>(n) + 1);
    for (auto& v : fx) v = d(g);
    for (auto& v : fy) v = d(g);
    std::vector<double> dx(fx.begin(), fx.end()), dy(fy.begin(), fy.end());
    const float* px = fx.data() + 1;  // unaligned starts
    const float* py = fy.data() + 1;
    double ref = 0, mag = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double p = static_cast<double>(px[i]) * static_cast<double>(py[i]);
      ref += p;
      mag += std::fabs(p);
    }
    const VecReduceKernels* base = variants()[0];
    const double f32 = base->dot_f32(px, py, n);
    const double f64 = base->dot_f64(dx.data() + 1, dy.data() + 1, n);
    EXPECT_NEAR(f32, ref, 1e-6 * (1 + mag));
    EXPECT_NEAR(f64, ref, 1e-13 * (1 + mag));
    if (n == 0) {
      EXPECT_EQ(f32, 0.0);
      EXPECT_EQ(f64, 0.0);
    }
    for (const VecReduceKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      EXPECT_TRUE(same_bits(k->dot_f32(px, py, n), f32));
      EXPECT_TRUE(same_bits(k->dot_f64(dx.data() + 1, dy.data() + 1, n), f64));
    }
  }
}

// A float dot propagates NaN and infinities wherever they sit.
TEST(NativeVecReduceKernels, FloatDotPropagatesNanAndInf) {
  const int64_t n = 300;  // one block and a tail
  for (int64_t at : {int64_t{0}, int64_t{17}, int64_t{255}, int64_t{299}}) {
    SCOPED_TRACE(at);
    std::vector<float> x(static_cast<size_t>(n), 1.0f), y(static_cast<size_t>(n), 0.5f);
    x[static_cast<size_t>(at)] = std::numeric_limits<float>::infinity();
    for (const VecReduceKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      EXPECT_EQ(k->dot_f32(x.data(), y.data(), n), std::numeric_limits<double>::infinity());
    }
    y[static_cast<size_t>(at)] = 0.0f;  // inf * 0
    for (const VecReduceKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      EXPECT_TRUE(std::isnan(k->dot_f32(x.data(), y.data(), n)));
    }
  }
}

TEST(NativeVecReduceKernels, SelectedVariantFollowsTheElementwiseOne) {
  const VecReduceKernels& k = st::native::cpu::vec_reduce_kernels();
  EXPECT_EQ(st::native::cpu::vec_reduce_kernels_for(k.isa), &k);
  EXPECT_EQ(st::native::cpu::vec_reduce_kernels_for("no-such-isa"), nullptr);
}

// The avx512_256 table runs at 32 bytes only the loops that widen floats
// element by element and the float max and min (vec_reduce_kernels_impl.inc);
// every other entry is the avx512 table's.
TEST(NativeVecReduceKernels, Avx512x256TableTakesAllButItsOwnLoopsFromAvx512) {
  const VecReduceKernels* narrow = st::native::cpu::vec_reduce_kernels_for("avx512_256");
  if (narrow == nullptr) GTEST_SKIP() << "the CPU has no AVX-512";
  const VecReduceKernels* wide = st::native::cpu::vec_reduce_kernels_for("avx512");
  ASSERT_NE(wide, nullptr);
  EXPECT_STREQ(narrow->isa, "avx512_256");
  EXPECT_NE(narrow->prod_f32, wide->prod_f32);
  EXPECT_NE(narrow->sum_abs_f32, wide->sum_abs_f32);
  EXPECT_NE(narrow->sum_sq_f32, wide->sum_sq_f32);
  EXPECT_NE(narrow->rows_mul_f32, wide->rows_mul_f32);
  EXPECT_NE(narrow->max_f32, wide->max_f32);
  EXPECT_NE(narrow->min_f32, wide->min_f32);
  EXPECT_NE(narrow->max_f64, wide->max_f64);
  EXPECT_NE(narrow->min_f64, wide->min_f64);
  EXPECT_NE(narrow->max_i64, wide->max_i64);
  EXPECT_NE(narrow->min_i64, wide->min_i64);
#define ST_EXPECT_SHARED(f) EXPECT_EQ(narrow->f, wide->f) << #f
  ST_EXPECT_SHARED(sum_i64);
  ST_EXPECT_SHARED(prod_f64);
  ST_EXPECT_SHARED(prod_i64);
  ST_EXPECT_SHARED(sum_abs_f64);
  ST_EXPECT_SHARED(sum_sq_f64);
  ST_EXPECT_SHARED(sum_sqdev_f64);
  ST_EXPECT_SHARED(sum_dev_f32);
  ST_EXPECT_SHARED(rows_add_f32);
  ST_EXPECT_SHARED(rows_add_f64);
  ST_EXPECT_SHARED(rows_add_i64);
  ST_EXPECT_SHARED(rows_mul_f64);
  ST_EXPECT_SHARED(rows_mul_i64);
  ST_EXPECT_SHARED(rows_max_f32);
  ST_EXPECT_SHARED(rows_min_f32);
  ST_EXPECT_SHARED(rows_max_f64);
  ST_EXPECT_SHARED(rows_min_f64);
  ST_EXPECT_SHARED(rows_max_i64);
  ST_EXPECT_SHARED(rows_min_i64);
  ST_EXPECT_SHARED(rows_argmax_f32);
  ST_EXPECT_SHARED(rows_argmin_f32);
  ST_EXPECT_SHARED(rows_argmax_f64);
  ST_EXPECT_SHARED(rows_argmin_f64);
  ST_EXPECT_SHARED(rows_argmax_i64);
  ST_EXPECT_SHARED(rows_argmin_i64);
  ST_EXPECT_SHARED(gather2_32);
  ST_EXPECT_SHARED(gather2_64);
  ST_EXPECT_SHARED(scatter2_32);
  ST_EXPECT_SHARED(scatter2_64);
  ST_EXPECT_SHARED(scatter2_by_vectors);
  ST_EXPECT_SHARED(dot_f32);
  ST_EXPECT_SHARED(dot_f64);
  ST_EXPECT_SHARED(scan_add_i64);
#undef ST_EXPECT_SHARED
}

}  // namespace

// Running sums wrap and continue from the carry, in every variant, on
// every tail length and an unaligned start; written in place they give the
// same values; the return is the last running sum (the carry for n = 0).
TEST(NativeVecReduceKernels, ScanAddI64WrapsFromTheCarryInPlaceToo) {
  std::mt19937 g(13);
  std::uniform_int_distribution<int64_t> di(std::numeric_limits<int64_t>::min(),
                                            std::numeric_limits<int64_t>::max());
  for (int64_t n : kLengths) {
    SCOPED_TRACE(n);
    std::vector<int64_t> x(static_cast<size_t>(n) + 1);
    for (auto& v : x) v = di(g);  // the sums overflow: they must wrap
    const uint64_t carry = static_cast<uint64_t>(di(g));
    const int64_t* px = x.data() + 1;  // an unaligned start
    std::vector<int64_t> want(static_cast<size_t>(n));
    uint64_t s = carry;
    for (int64_t i = 0; i < n; ++i) {
      s += static_cast<uint64_t>(px[i]);
      want[static_cast<size_t>(i)] = static_cast<int64_t>(s);
    }
    for (const VecReduceKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      std::vector<int64_t> out(static_cast<size_t>(n) + 1, 7);
      EXPECT_EQ(k->scan_add_i64(out.data() + 1, px, n, carry), s);
      EXPECT_EQ(std::vector<int64_t>(out.begin() + 1, out.end()), want);
      EXPECT_EQ(out[0], 7);  // nothing before the run is written
      std::vector<int64_t> in_place = x;
      EXPECT_EQ(k->scan_add_i64(in_place.data() + 1, in_place.data() + 1, n, carry), s);
      EXPECT_EQ(std::vector<int64_t>(in_place.begin() + 1, in_place.end()), want);
    }
  }
}
