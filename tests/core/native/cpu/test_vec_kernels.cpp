// The per-ISA variants of the vectorized inner loops agree bit for bit with
// the baseline variant and with plain scalar loops, on every length (all
// tail sizes) and on unaligned pointers. The variants are compiled into
// this test with the library's flags (native_tests.cmake), so every one the
// CPU supports is checked, not only the one the library picked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <st/core/generator.h>

#include "native/cpu/vec_kernels.h"

namespace {

// memcmp must not see a null pointer even for zero bytes (an empty
// std::vector's data() may be null), so the n == 0 case compares nothing.
bool same_bytes(const void* a, const void* b, size_t bytes) {
  return bytes == 0 || std::memcmp(a, b, bytes) == 0;
}

using st::native::cpu::VecKernels;

std::vector<const VecKernels*> variants() {
  std::vector<const VecKernels*> v;
  for (const char* isa : {"default", "avx2", "avx512", "avx512_256"}) {
    if (const VecKernels* k = st::native::cpu::vec_kernels_for(isa)) v.push_back(k);
  }
  return v;
}

TEST(NativeVecKernels, VariantsMatchScalarLoops) {
  std::mt19937 g(42);
  std::uniform_real_distribution<float> d(-10, 10);
  ASSERT_FALSE(variants().empty());
  EXPECT_EQ(std::strcmp(variants()[0]->isa, "default"), 0);
  for (int64_t n : {0, 1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1000, 4099}) {
    std::vector<float> a(static_cast<size_t>(n) + 1), b(static_cast<size_t>(n) + 1);
    for (auto& x : a) x = d(g);
    for (auto& x : b) x = d(g);
    std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end());
    // +1: unaligned starts
    const float* pa = a.data() + 1;
    const float* pb = b.data() + 1;
    std::vector<float> want_add(static_cast<size_t>(n)), want_mul(static_cast<size_t>(n)),
        want_adds(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      want_add[i] = pa[i] + 2.5f * pb[i];
      want_mul[i] = pa[i] * pb[i];
      want_adds[i] = pa[i] + 2.5f * pb[0];
    }
    double ref_sum = 0, abs_sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      ref_sum += static_cast<double>(pa[i]);
      abs_sum += std::abs(static_cast<double>(pa[i]));
    }
    double base_sum = 0;
    for (const VecKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      std::vector<float> o(static_cast<size_t>(n) + 1);
      for (bool stream : {false, true}) {  // regular and non-temporal stores
        SCOPED_TRACE(stream ? "stream" : "store");
        k->add_f32(o.data() + 1, pa, pb, 2.5f, n, false, stream);
        EXPECT_TRUE(same_bytes(o.data() + 1, want_add.data(), sizeof(float) * n));
        k->add_f32(o.data() + 1, pa, pb, 2.5f, n, true, stream);
        EXPECT_TRUE(same_bytes(o.data() + 1, want_adds.data(), sizeof(float) * n));
        k->mul_f32(o.data() + 1, pa, pb, n, false, stream);
        EXPECT_TRUE(same_bytes(o.data() + 1, want_mul.data(), sizeof(float) * n));
        std::vector<double> od(static_cast<size_t>(n) + 1);
        k->add_f64(od.data() + 1, ad.data() + 1, bd.data() + 1, 1.0, n, false, stream);
        k->mul_f64(od.data(), od.data() + 1, bd.data() + 1, n, n > 0, stream);  // scalar operand
        for (int64_t i = 0; i < n; ++i) {
          EXPECT_EQ(od[i], (ad[i + 1] + bd[i + 1]) * bd[1]) << i;
        }
      }
      const double s = k->sum_f32(pa, n);
      // float lanes add at most 16 values before widening to double
      EXPECT_NEAR(s, ref_sum, 1e-6 * abs_sum + 1e-12);
      if (k == variants()[0]) base_sum = s;
      EXPECT_EQ(s, base_sum);  // same lanes, same order: identical across ISAs
      EXPECT_NEAR(k->sum_f64(ad.data() + 1, n), ref_sum, 1e-9 * (1 + n));
    }
  }
}

// sum_f32's order, spelled out in scalar code: per block of 256, lane l of
// accumulator q takes x[64 s + 16 q + l] for s < 4, the accumulators
// combine as (a0 + a1) + (a2 + a3) in float and lanes l and l + 8 are
// added into double lanes; the whole groups of 16 after the blocks go
// into one more set of 16 float lanes, group after group; then the eight
// double lanes l + (l + 8) combine as ((d0 + d1) + (d2 + d3)) + ((d4 + d5) +
// (d6 + d7)), and the last n % 16 elements are added one by one.
double model_sum_f32(const float* x, int64_t n) {
  double d[16] = {};
  int64_t i = 0;
  for (; i + 256 <= n; i += 256) {
    float a[4][16] = {};
    for (int64_t s = 0; s < 4; ++s) {
      for (int q = 0; q < 4; ++q) {
        for (int l = 0; l < 16; ++l) a[q][l] += x[i + 64 * s + 16 * q + l];
      }
    }
    for (int l = 0; l < 16; ++l)
      d[l] += static_cast<double>((a[0][l] + a[1][l]) + (a[2][l] + a[3][l]));
  }
  float g[16] = {};
  for (; i + 16 <= n; i += 16) {
    for (int l = 0; l < 16; ++l) g[l] += x[i + l];
  }
  for (int l = 0; l < 16; ++l) d[l] += static_cast<double>(g[l]);
  double t[8];
  for (int l = 0; l < 8; ++l) t[l] = d[l] + d[l + 8];
  double s = ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7]));
  for (; i < n; ++i) s += static_cast<double>(x[i]);
  return s;
}

TEST(NativeVecKernels, FloatSumFollowsTheDocumentedOrder) {
  std::mt19937 g(5);
  std::uniform_real_distribution<float> d(-100, 100);
  for (int64_t n :
       {0, 1, 15, 16, 17, 31, 32, 48, 100, 255, 256, 257, 271, 272, 300, 512, 1000, 4099}) {
    SCOPED_TRACE(n);
    std::vector<float> x(static_cast<size_t>(n) + 1);
    for (auto& v : x) v = d(g);
    const double want = model_sum_f32(x.data() + 1, n);  // unaligned
    for (const VecKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      const double got = k->sum_f32(x.data() + 1, n);
      EXPECT_TRUE(same_bytes(&got, &want, sizeof(got))) << got << " vs " << want;
    }
  }
}

// The rows of a sum over the last dim, in one call: each row keeps
// sum_f32's bits, whatever the row count and length, rows anywhere.
TEST(NativeVecKernels, FloatRowSumsKeepEachRowsBits) {
  std::mt19937 g(9);
  std::uniform_real_distribution<float> d(-10, 10);
  for (int64_t n : {0, 1, 15, 16, 17, 40, 255, 256, 300}) {
    SCOPED_TRACE(n);
    const int64_t count = 37;
    std::vector<float> x(static_cast<size_t>((count + 1) * (n + 3)));
    for (auto& v : x) v = d(g);
    std::vector<const float*> rows;
    for (int64_t r = 0; r < count; ++r) rows.push_back(x.data() + (count - r) * (n + 3) + r % 3);
    for (const VecKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      std::vector<double> out(static_cast<size_t>(count) + 1, -1.0);
      k->sum_f32_runs(out.data(), rows.data(), count, n);
      for (int64_t r = 0; r < count; ++r) {
        const double want = k->sum_f32(rows[static_cast<size_t>(r)], n);
        EXPECT_TRUE(same_bytes(&out[static_cast<size_t>(r)], &want, sizeof(want))) << "row " << r;
      }
      EXPECT_EQ(out[static_cast<size_t>(count)], -1.0) << "wrote past the last row";
    }
  }
}

// Every variant's Philox gives the scalar function's words, block after
// block, for any count (the vector groups and the scalar tail), on an
// unaligned destination, across the carry into the counter's high word
// and the wrap at 2^64, without writing past the last block.
TEST(NativeVecKernels, PhiloxMatchesScalarBlocks) {
  const uint64_t counters[] = {0, 5, 0xfffffffaull, 0x1234567800000000ull, ~uint64_t{0} - 9};
  const uint64_t keys[] = {0, 67280421310721ull, ~uint64_t{0}};
  for (const VecKernels* k : variants()) {
    SCOPED_TRACE(k->isa);
    for (const uint64_t counter : counters) {
      for (const uint64_t key : keys) {
        for (const int64_t blocks : {0, 1, 7, 8, 9, 15, 16, 17, 33}) {
          std::vector<uint32_t> out(4 * static_cast<size_t>(blocks) + 2, 0xdeadbeefu);
          k->philox4x32_10(out.data() + 1, counter, key, blocks);
          EXPECT_EQ(out[0], 0xdeadbeefu);
          EXPECT_EQ(out.back(), 0xdeadbeefu) << "wrote past the end";
          for (int64_t j = 0; j < blocks; ++j) {
            const uint64_t c = counter + static_cast<uint64_t>(j);
            const std::array<uint32_t, 4> want =
                st::philox4x32_10({static_cast<uint32_t>(c), static_cast<uint32_t>(c >> 32), 0, 0},
                                  {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)});
            for (size_t w = 0; w < 4; ++w) {
              ASSERT_EQ(out[1 + 4 * static_cast<size_t>(j) + w], want[w])
                  << "counter " << counter << " key " << key << " blocks " << blocks << " block "
                  << j << " word " << w;
            }
          }
        }
      }
    }
  }
}

TEST(NativeVecKernels, Int64ComparisonsMatchScalarLoops) {
  std::mt19937_64 g(7);
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t pool[] = {kMin, kMin + 1, -2, -1, 0, 1, 2, kMax - 1, kMax};
  for (int64_t n : {0, 1, 7, 8, 9, 15, 16, 17, 100, 1001}) {
    // a[0] is skipped: the pointers are unaligned.
    std::vector<int64_t> a(static_cast<size_t>(n) + 1), b(static_cast<size_t>(n) + 1);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = i % 3 == 0 ? pool[g() % 9] : static_cast<int64_t>(g() % 5) - 2;
      b[i] = i % 4 == 0 ? pool[g() % 9] : static_cast<int64_t>(g() % 5) - 2;
    }
    for (const VecKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      for (int op = 0; op < 6; ++op) {
        std::vector<int64_t> out(static_cast<size_t>(n) + 1, 99);
        k->compare_i64[op](out.data() + 1, a.data() + 1, b.data() + 1, n);
        for (size_t i = 1; i <= static_cast<size_t>(n); ++i) {
          const bool want = op == 0   ? a[i] == b[i]
                            : op == 1 ? a[i] != b[i]
                            : op == 2 ? a[i] < b[i]
                            : op == 3 ? a[i] <= b[i]
                            : op == 4 ? a[i] > b[i]
                                      : a[i] >= b[i];
          ASSERT_EQ(out[i], want ? 1 : 0) << "op " << op << " n " << n << " at " << i;
        }
        EXPECT_EQ(out[0], 99);
      }
    }
  }
}

// The comparisons into bool bytes: every variant gives the scalar
// comparison (NaN: ne true, the others false; -0.0 == +0.0) on every
// length and unaligned pointers, and leaves the byte before out alone.
template <typename T>
bool compare_scalar(int op, T x, T y) {
  return op == 0   ? x == y
         : op == 1 ? x != y
         : op == 2 ? x < y
         : op == 3 ? x <= y
         : op == 4 ? x > y
                   : x >= y;
}

TEST(NativeVecKernels, ComparisonsIntoBoolMatchScalarLoops) {
  std::mt19937_64 g(13);
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float fpool[] = {nan,
                         -nan,
                         0.0f,
                         -0.0f,
                         inf,
                         -inf,
                         1.0f,
                         -1.0f,
                         2.5f,
                         std::numeric_limits<float>::max(),
                         std::numeric_limits<float>::denorm_min(),
                         1.0f};
  const int64_t lo = std::numeric_limits<int64_t>::min();
  const int64_t hi = std::numeric_limits<int64_t>::max();
  const int64_t ipool[] = {lo, lo + 1, -2, -1, 0, 1, 2, int64_t{1} << 40, hi - 1, hi};
  for (int64_t n : {0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1001}) {
    std::vector<float> fa(static_cast<size_t>(n) + 1), fb(static_cast<size_t>(n) + 1);
    std::vector<int64_t> ia(static_cast<size_t>(n) + 1), ib(static_cast<size_t>(n) + 1);
    for (size_t i = 0; i < fa.size(); ++i) {
      fa[i] = fpool[g() % 12];
      fb[i] = fpool[g() % 12];
      ia[i] = ipool[g() % 10];
      ib[i] = ipool[g() % 10];
    }
    for (const VecKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      for (int op = 0; op < 6; ++op) {
        std::vector<uint8_t> fout(static_cast<size_t>(n) + 1, 7), iout(fout);
        k->compare_f32_b8[op](reinterpret_cast<bool*>(fout.data() + 1), fa.data() + 1,
                              fb.data() + 1, n);
        k->compare_i64_b8[op](reinterpret_cast<bool*>(iout.data() + 1), ia.data() + 1,
                              ib.data() + 1, n);
        for (size_t i = 1; i <= static_cast<size_t>(n); ++i) {
          ASSERT_EQ(fout[i], compare_scalar(op, fa[i], fb[i]) ? 1 : 0)
              << "op " << op << " n " << n << " at " << i;
          ASSERT_EQ(iout[i], compare_scalar(op, ia[i], ib[i]) ? 1 : 0)
              << "op " << op << " n " << n << " at " << i;
        }
        EXPECT_EQ(fout[0], 7);
        EXPECT_EQ(iout[0], 7);
      }
    }
  }
}

TEST(NativeVecKernels, Int64MaximumMinimumMatchScalarLoops) {
  std::mt19937_64 g(11);
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t pool[] = {kMin, kMin + 1, -2, -1, 0, 1, 2, kMax - 1, kMax};
  for (int64_t n : {0, 1, 3, 4, 5, 7, 8, 9, 17, 100, 1001}) {
    // a[0] is skipped: the pointers are unaligned.
    std::vector<int64_t> a(static_cast<size_t>(n) + 1), b(static_cast<size_t>(n) + 1);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = i % 3 == 0 ? pool[g() % 9] : static_cast<int64_t>(g());
      b[i] = i % 4 == 0 ? pool[g() % 9] : static_cast<int64_t>(g() % 5) - 2;
    }
    for (const VecKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      for (int op = 0; op < 2; ++op) {
        std::vector<int64_t> out(static_cast<size_t>(n) + 1, 99);
        k->maxmin_i64[op](out.data() + 1, a.data() + 1, b.data() + 1, n);
        for (size_t i = 1; i <= static_cast<size_t>(n); ++i) {
          const int64_t want = op == 0 ? std::max(a[i], b[i]) : std::min(a[i], b[i]);
          ASSERT_EQ(out[i], want) << "op " << op << " n " << n << " at " << i;
        }
        EXPECT_EQ(out[0], 99);
        // In place over b.
        std::vector<int64_t> bb = b;
        k->maxmin_i64[op](bb.data() + 1, a.data() + 1, bb.data() + 1, n);
        for (size_t i = 1; i <= static_cast<size_t>(n); ++i) ASSERT_EQ(bb[i], out[i]);
      }
    }
  }
}

// Integer pow by square and multiply, wrapping; negative exponents give
// 1 for base 1, +-1 by parity for base -1, else 0 (PyTorch's integer pow).
int64_t pow_ref(int64_t a, int64_t e) {
  if (e < 0) return a == 1 ? 1 : a == -1 ? (e % 2 == 0 ? 1 : -1) : 0;
  uint64_t r = 1;
  for (int64_t k = 0; k < e && k < 200; ++k) r *= static_cast<uint64_t>(a);  // small e only
  return static_cast<int64_t>(r);
}

// Every lane's own exponent, whatever the others in its vector have: small
// and large exponents side by side, negative ones with bases 1, -1 and
// others, wrapping products; every tail length, unaligned, in place.
TEST(NativeVecKernels, Int64PowMatchesRepeatedMultiplication) {
  std::mt19937_64 g(29);
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t bases[] = {kMin, -3, -2, -1, 0, 1, 2, 3, 7, 10, 1000003};
  for (int64_t n : {0, 1, 3, 4, 5, 7, 8, 9, 17, 100, 1001}) {
    std::vector<int64_t> a(static_cast<size_t>(n) + 1), b(static_cast<size_t>(n) + 1);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = i % 5 == 0 ? static_cast<int64_t>(g()) : bases[g() % 11];
      b[i] = i % 7 == 0 ? static_cast<int64_t>(g() % 150) : static_cast<int64_t>(g() % 21) - 10;
    }
    for (const VecKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      std::vector<int64_t> out(static_cast<size_t>(n) + 1, 99);
      k->pow_i64(out.data() + 1, a.data() + 1, b.data() + 1, n);
      for (size_t i = 1; i <= static_cast<size_t>(n); ++i) {
        ASSERT_EQ(out[i], pow_ref(a[i], b[i])) << a[i] << "^" << b[i] << " n " << n;
      }
      EXPECT_EQ(out[0], 99);
      std::vector<int64_t> aa = a;
      k->pow_i64(aa.data() + 1, aa.data() + 1, b.data() + 1, n);
      for (size_t i = 1; i <= static_cast<size_t>(n); ++i) ASSERT_EQ(aa[i], out[i]);
    }
  }
  // Exponents up to 2^62: the product's bits still follow the reference's
  // squaring (3^(2^k) by k squarings).
  for (const VecKernels* k : variants()) {
    std::vector<int64_t> a(16, 3), b(16), out(16);
    for (int i = 0; i < 16; ++i) b[static_cast<size_t>(i)] = int64_t{1} << (i * 4 % 63);
    k->pow_i64(out.data(), a.data(), b.data(), 16);
    for (int i = 0; i < 16; ++i) {
      uint64_t want = 3;
      for (int s = 0; s < i * 4 % 63; ++s) want *= want;
      ASSERT_EQ(out[static_cast<size_t>(i)], static_cast<int64_t>(want)) << k->isa << " " << i;
    }
  }
}

// PyTorch's shifts: a count outside [0, 64) gives 0 (left) or the sign
// fill (right); the left shift wraps.
int64_t lshift_ref(int64_t a, int64_t c) {
  if (c < 0 || c >= 64) return 0;
  return static_cast<int64_t>(static_cast<uint64_t>(a) << c);
}
int64_t rshift_ref(int64_t a, int64_t c) {
  if (c < 0 || c >= 64) return a < 0 ? -1 : 0;
  return a >> c;
}

TEST(NativeVecKernels, Int64BitwiseAndShiftsMatchScalarLoops) {
  std::mt19937_64 g(11);
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t values[] = {kMin, kMin + 1, -5, -1, 0, 1, 3, kMax - 1, kMax};
  const int64_t counts[] = {kMin, -65, -64, -1, 0, 1, 31, 62, 63, 64, 65, 127, 1 << 20, kMax};
  for (int64_t n : {0, 1, 3, 4, 5, 8, 9, 16, 17, 100, 1001}) {
    std::vector<int64_t> a(static_cast<size_t>(n) + 1), b(static_cast<size_t>(n) + 1);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = i % 2 == 0 ? values[g() % 9] : static_cast<int64_t>(g());
      b[i] = i % 3 == 0 ? static_cast<int64_t>(g()) : counts[g() % 14];
    }
    for (const VecKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      for (int op = 0; op < 5; ++op) {
        std::vector<int64_t> out(static_cast<size_t>(n) + 1, 99);
        k->bitwise_i64[op](out.data() + 1, a.data() + 1, b.data() + 1, n);
        for (size_t i = 1; i <= static_cast<size_t>(n); ++i) {
          const int64_t want = op == 0   ? (a[i] & b[i])
                               : op == 1 ? (a[i] | b[i])
                               : op == 2 ? (a[i] ^ b[i])
                               : op == 3 ? lshift_ref(a[i], b[i])
                                         : rshift_ref(a[i], b[i]);
          ASSERT_EQ(out[i], want) << "op " << op << " n " << n << " a " << a[i] << " b " << b[i];
        }
        EXPECT_EQ(out[0], 99);
      }
      std::vector<int64_t> out(static_cast<size_t>(n) + 1, 99);
      k->bitwise_not_i64(out.data() + 1, a.data() + 1, n);
      for (size_t i = 1; i <= static_cast<size_t>(n); ++i) ASSERT_EQ(out[i], ~a[i]);
      EXPECT_EQ(out[0], 99);
    }
  }
}

TEST(NativeVecKernels, ByteBitwiseMatchesScalarLoops) {
  std::mt19937 g(5);
  for (int64_t n : {0, 1, 15, 16, 17, 31, 32, 33, 64, 65, 1000}) {
    std::vector<uint8_t> a(static_cast<size_t>(n) + 1), b(static_cast<size_t>(n) + 1);
    for (auto& x : a) x = static_cast<uint8_t>(g());
    for (auto& x : b) x = static_cast<uint8_t>(g());
    for (const VecKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      for (int op = 0; op < 3; ++op) {
        std::vector<uint8_t> out(static_cast<size_t>(n) + 1, 99);
        k->bitwise_u8[op](out.data() + 1, a.data() + 1, b.data() + 1, n);
        for (size_t i = 1; i <= static_cast<size_t>(n); ++i) {
          const int want = op == 0 ? (a[i] & b[i]) : op == 1 ? (a[i] | b[i]) : (a[i] ^ b[i]);
          ASSERT_EQ(out[i], want) << "op " << op << " n " << n << " at " << i;
        }
        EXPECT_EQ(out[0], 99);
      }
    }
  }
}

bool logical_ref(int op, bool x, bool y) {
  return op == 0 ? (x && y) : op == 1 ? (x || y) : (x != y);
}

// Truth is "not zero": NaN and denormals are true, both zeros false; the
// bool outputs are bytes 0 or 1 on every length (the 16-lane groups and
// the tails).
TEST(NativeVecKernels, LogicalOpsMatchScalarLoops) {
  std::mt19937_64 g(3);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float fpool[] = {0.0f,
                         -0.0f,
                         1.0f,
                         -2.5f,
                         nan,
                         std::numeric_limits<float>::infinity(),
                         std::numeric_limits<float>::denorm_min(),
                         0.0f};
  const int64_t ipool[] = {0, 0, 1, -1, std::numeric_limits<int64_t>::min(), int64_t{1} << 40};
  for (int64_t n : {0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 100, 1001}) {
    std::vector<float> fa(static_cast<size_t>(n) + 1), fb(static_cast<size_t>(n) + 1);
    std::vector<int64_t> ia(static_cast<size_t>(n) + 1), ib(static_cast<size_t>(n) + 1);
    for (size_t i = 0; i < fa.size(); ++i) {
      fa[i] = fpool[g() % 8];
      fb[i] = fpool[g() % 8];
      ia[i] = ipool[g() % 6];
      ib[i] = ipool[g() % 6];
    }
    for (const VecKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      for (int op = 0; op < 4; ++op) {  // 3: logical_not of a
        std::vector<bool> want_f(static_cast<size_t>(n) + 1), want_i(static_cast<size_t>(n) + 1);
        for (size_t i = 1; i <= static_cast<size_t>(n); ++i) {
          const bool xf = fa[i] != 0.0f, yf = fb[i] != 0.0f, xi = ia[i] != 0, yi = ib[i] != 0;
          want_f[i] = op == 3 ? !xf : logical_ref(op, xf, yf);
          want_i[i] = op == 3 ? !xi : logical_ref(op, xi, yi);
        }
        std::vector<uint8_t> fbool(static_cast<size_t>(n) + 1, 7), ibool(fbool);
        std::vector<float> fout(static_cast<size_t>(n) + 1, 9.0f);
        std::vector<int64_t> iout(static_cast<size_t>(n) + 1, 9);
        auto* fbp = reinterpret_cast<bool*>(fbool.data() + 1);
        auto* ibp = reinterpret_cast<bool*>(ibool.data() + 1);
        if (op == 3) {
          k->logical_not_f32_b8(fbp, fa.data() + 1, n);
          k->logical_not_f32(fout.data() + 1, fa.data() + 1, n);
          k->logical_not_i64_b8(ibp, ia.data() + 1, n);
          k->logical_not_i64(iout.data() + 1, ia.data() + 1, n);
        } else {
          k->logical_f32_b8[op](fbp, fa.data() + 1, fb.data() + 1, n);
          k->logical_f32[op](fout.data() + 1, fa.data() + 1, fb.data() + 1, n);
          k->logical_i64_b8[op](ibp, ia.data() + 1, ib.data() + 1, n);
          k->logical_i64[op](iout.data() + 1, ia.data() + 1, ib.data() + 1, n);
        }
        for (size_t i = 1; i <= static_cast<size_t>(n); ++i) {
          ASSERT_EQ(fbool[i], want_f[i] ? 1 : 0) << "op " << op << " n " << n << " at " << i;
          ASSERT_EQ(ibool[i], want_i[i] ? 1 : 0) << "op " << op << " n " << n << " at " << i;
          ASSERT_EQ(fout[i], want_f[i] ? 1.0f : 0.0f) << "op " << op << " n " << n << " at " << i;
          ASSERT_EQ(iout[i], want_i[i] ? 1 : 0) << "op " << op << " n " << n << " at " << i;
        }
        EXPECT_EQ(fbool[0], 7);
        EXPECT_EQ(ibool[0], 7);
        EXPECT_EQ(fout[0], 9.0f);
        EXPECT_EQ(iout[0], 9);
      }
    }
  }
}

// PyTorch's neg, abs, relu and sign, element by element: float neg and
// abs act on the sign bit only, relu zeroes only values below zero (NaN
// and -0.0 pass, as PyTorch's max(x, 0)), sign of a zero or NaN is +0.0;
// int64 neg and abs wrap at the minimum.
uint32_t float_bits(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof(b));
  return b;
}
float bits_float(uint32_t b) {
  float x;
  std::memcpy(&x, &b, sizeof(x));
  return x;
}
float simple_unary_ref(int op, float x) {
  switch (op) {
    case 0:
      return bits_float(float_bits(x) ^ 0x80000000u);
    case 1:
      return bits_float(float_bits(x) & 0x7fffffffu);
    case 2:
      return x < 0.0f ? 0.0f : x;
    default:
      return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f;
  }
}
int64_t simple_unary_ref(int op, int64_t x) {
  const uint64_t u = static_cast<uint64_t>(x);
  switch (op) {
    case 0:
      return static_cast<int64_t>(~u + 1);
    case 1:
      return x < 0 ? static_cast<int64_t>(~u + 1) : x;
    case 2:
      return x > 0 ? x : 0;
    default:
      return x > 0 ? 1 : x < 0 ? -1 : 0;
  }
}

// Every variant gives the reference's bits on every length (the two- and
// one-register steps and the scalar tail), on unaligned pointers and in
// place, for the edge values: NaN of either sign and with a payload, both
// zeros, infinities, denormals, INT64_MIN and INT64_MAX.
TEST(NativeVecKernels, SimpleUnaryOpsMatchScalarLoops) {
  std::mt19937_64 g(13);
  const float inf = std::numeric_limits<float>::infinity();
  const float fpool[] = {0.0f,
                         -0.0f,
                         1.5f,
                         -2.5f,
                         std::numeric_limits<float>::quiet_NaN(),
                         -std::numeric_limits<float>::quiet_NaN(),
                         bits_float(0x7fa00001u),  // a NaN with a payload
                         inf,
                         -inf,
                         std::numeric_limits<float>::denorm_min(),
                         -std::numeric_limits<float>::denorm_min(),
                         std::numeric_limits<float>::max()};
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t ipool[] = {kMin, kMin + 1, -7, -1, 0, 1, 9, kMax};
  for (int64_t n : {0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 100, 1001}) {
    std::vector<float> fa(static_cast<size_t>(n) + 1);
    std::vector<int64_t> ia(static_cast<size_t>(n) + 1);
    for (size_t i = 0; i < fa.size(); ++i) {
      fa[i] = fpool[g() % 12];
      ia[i] = i % 2 == 0 ? ipool[g() % 8] : static_cast<int64_t>(g());
    }
    for (const VecKernels* k : variants()) {
      SCOPED_TRACE(k->isa);
      for (int op = 0; op < 4; ++op) {
        std::vector<float> fout(static_cast<size_t>(n) + 1, 9.0f), fin(fa);
        std::vector<int64_t> iout(static_cast<size_t>(n) + 1, 9), iin(ia);
        k->simple_unary_f32[op](fout.data() + 1, fa.data() + 1, n);
        k->simple_unary_i64[op](iout.data() + 1, ia.data() + 1, n);
        k->simple_unary_f32[op](fin.data() + 1, fin.data() + 1, n);  // in place
        k->simple_unary_i64[op](iin.data() + 1, iin.data() + 1, n);
        for (size_t i = 1; i <= static_cast<size_t>(n); ++i) {
          const uint32_t want_f = float_bits(simple_unary_ref(op, fa[i]));
          const int64_t want_i = simple_unary_ref(op, ia[i]);
          ASSERT_EQ(float_bits(fout[i]), want_f)
              << "op " << op << " n " << n << " x " << fa[i] << " at " << i;
          ASSERT_EQ(float_bits(fin[i]), want_f) << "in place, op " << op << " n " << n;
          ASSERT_EQ(iout[i], want_i) << "op " << op << " n " << n << " x " << ia[i];
          ASSERT_EQ(iin[i], want_i) << "in place, op " << op << " n " << n;
        }
        EXPECT_EQ(fout[0], 9.0f);
        EXPECT_EQ(iout[0], 9);
      }
    }
  }
}

// Every width's fill writes exactly n copies of the value's bytes, on
// every length (whole vectors, pairs of them and every tail) and from a
// start that is not vector aligned, and touches nothing past the end.
TEST(NativeVecKernels, FillBitsWritesTheValueAndNothingElse) {
  const unsigned char value[16] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
                                   0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xf0, 0x0f};
  for (const VecKernels* k : variants()) {
    SCOPED_TRACE(k->isa);
    for (int w = 0; w < 5; ++w) {
      const size_t width = size_t{1} << w;
      for (int64_t n : {0, 1, 3, 7, 8, 63, 64, 65, 127, 128, 129, 200, 1031}) {
        SCOPED_TRACE(::testing::Message() << "width " << width << " n " << n);
        const size_t bytes = static_cast<size_t>(n) * width;
        // One element of room before (an unaligned start) and a guard after.
        std::vector<unsigned char> buf(bytes + 2 * width + 64, 0xe5);
        k->fill_bits[w](buf.data() + width, value, n);
        for (size_t i = 0; i < width; ++i) ASSERT_EQ(buf[i], 0xe5);
        for (size_t i = 0; i < bytes; ++i) ASSERT_EQ(buf[width + i], value[i % width]) << i;
        for (size_t i = width + bytes; i < buf.size(); ++i) ASSERT_EQ(buf[i], 0xe5);
      }
    }
  }
}

// Every variant's copy writes exactly the source's bytes on every length
// (shorter than a vector, whole vectors, pairs of them and every tail,
// where the last vector overlaps bytes already copied, and the runs from 1
// MiB on that go to memcpy) from starts that are not vector aligned, and
// touches nothing before or after.
TEST(NativeVecKernels, CopyBytesCopiesTheRunAndNothingElse) {
  std::vector<unsigned char> src((size_t{1} << 20) + 64);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 131 + 7);
  for (const VecKernels* k : variants()) {
    SCOPED_TRACE(k->isa);
    for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{15}, int64_t{31}, int64_t{32}, int64_t{33},
                      int64_t{63}, int64_t{64}, int64_t{65}, int64_t{100}, int64_t{127},
                      int64_t{128}, int64_t{129}, int64_t{191}, int64_t{192}, int64_t{4096},
                      int64_t{4097}, (int64_t{1} << 20) - 1, (int64_t{1} << 20) + 5}) {
      for (size_t off : {size_t{0}, size_t{1}, size_t{3}}) {
        SCOPED_TRACE(::testing::Message() << "bytes " << n << " offset " << off);
        const size_t bytes = static_cast<size_t>(n);
        std::vector<unsigned char> buf(bytes + 2 * off + 64, 0xe5);
        k->copy_bytes(buf.data() + off, src.data() + off, n);
        for (size_t i = 0; i < off; ++i) ASSERT_EQ(buf[i], 0xe5);
        for (size_t i = 0; i < bytes; ++i) ASSERT_EQ(buf[off + i], src[off + i]) << i;
        for (size_t i = off + bytes; i < buf.size(); ++i) ASSERT_EQ(buf[i], 0xe5);
      }
    }
  }
}

// Every variant's row copy writes each row's bytes to its place and
// nothing between the rows (the gap of out_stride - bytes) or around them:
// every row length below two vectors (each size class of the short moves,
// the exact element sizes among them), vector multiples and tails, from
// starts that are not aligned, with source and destination strides that
// differ.
TEST(NativeVecKernels, CopyRowsCopiesEachRowAndNothingElse) {
  std::vector<unsigned char> src(1 << 16);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 131 + 7);
  std::vector<int64_t> lengths;
  for (int64_t n = 0; n <= 130; ++n) lengths.push_back(n);
  for (int64_t n : {191, 192, 256, 1000}) lengths.push_back(n);
  for (const VecKernels* k : variants()) {
    SCOPED_TRACE(k->isa);
    for (int64_t n : lengths) {
      for (int64_t rows : {1, 2, 7}) {
        SCOPED_TRACE(::testing::Message() << "bytes " << n << " rows " << rows);
        const int64_t in_stride = n + 5, out_stride = 2 * n + 3;
        const size_t size = static_cast<size_t>(1 + rows * out_stride + 64);
        std::vector<unsigned char> buf(size, 0xe5);
        k->copy_rows(buf.data() + 1, out_stride, src.data() + 3, in_stride, n, rows);
        std::vector<unsigned char> want(size, 0xe5);
        for (int64_t r = 0; r < rows; ++r) {
          std::memcpy(want.data() + 1 + r * out_stride, src.data() + 3 + r * in_stride,
                      static_cast<size_t>(n));
        }
        ASSERT_EQ(buf, want);
      }
    }
  }
}

// The int64 GEMM's block update wraps as two's complement on every
// variant, for every row count (the 4-row blocks and each remainder),
// every column tail (two registers, one, element by element), both layouts
// of A, and writes nothing outside its rows x n block of C.
TEST(NativeVecKernels, GemmI64WrapsOnEveryShape) {
  const auto value = [](int64_t i, int64_t salt) {
    const uint64_t x =
        static_cast<uint64_t>(i + 1) * 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(salt);
    switch (i % 5) {
      case 0:
        return INT64_MAX - i;
      case 1:
        return INT64_MIN + i;
      case 2:
        return static_cast<int64_t>(x);
      default:
        return static_cast<int64_t>(x % 2001) - 1000;
    }
  };
  for (const VecKernels* kv : variants()) {
    SCOPED_TRACE(kv->isa);
    for (int64_t rows : {1, 2, 3, 4, 5, 7, 9}) {
      for (int64_t k : {0, 1, 3, 17}) {
        for (int64_t n : {0, 1, 3, 8, 9, 16, 17, 33, 40}) {
          for (bool trans_a : {false, true}) {
            SCOPED_TRACE(::testing::Message()
                         << "rows " << rows << " k " << k << " n " << n << " trans_a " << trans_a);
            const int64_t ldc = n + 3, ldb = n + 2;
            const int64_t lda = (trans_a ? rows : k) + 1;
            const int64_t a_row = trans_a ? 1 : lda, a_step = trans_a ? lda : 1;
            std::vector<int64_t> a(static_cast<size_t>(lda * ((trans_a ? k : rows) + 1)));
            std::vector<int64_t> b(static_cast<size_t>(ldb * (k + 1)));
            std::vector<int64_t> acc(static_cast<size_t>(ldc * (rows + 1)));
            for (size_t i = 0; i < a.size(); ++i) a[i] = value(static_cast<int64_t>(i), 1);
            for (size_t i = 0; i < b.size(); ++i) b[i] = value(static_cast<int64_t>(i), 2);
            for (size_t i = 0; i < acc.size(); ++i) acc[i] = value(static_cast<int64_t>(i), 3);
            std::vector<int64_t> want = acc;
            for (int64_t r = 0; r < rows; ++r) {
              for (int64_t j = 0; j < n; ++j) {
                uint64_t s = static_cast<uint64_t>(want[static_cast<size_t>(r * ldc + j)]);
                for (int64_t p = 0; p < k; ++p) {
                  s += static_cast<uint64_t>(a[static_cast<size_t>(r * a_row + p * a_step)]) *
                       static_cast<uint64_t>(b[static_cast<size_t>(p * ldb + j)]);
                }
                want[static_cast<size_t>(r * ldc + j)] = static_cast<int64_t>(s);
              }
            }
            kv->gemm_i64(acc.data(), ldc, a.data(), a_row, a_step, b.data(), ldb, rows, k, n);
            EXPECT_EQ(acc, want);
          }
        }
      }
    }
  }
}

// The small float product on every variant, for every row count (the
// register blocks and each remainder), every column tail (two registers,
// one, element by element) and both layouts of A. Small integers make
// every product and partial sum exact, so any order and either kind of
// multiply-add give the same bits, which the test demands; beta == 0 must
// not read C (NaN there is overwritten), and nothing outside the m x n
// block of C is written.
TEST(NativeVecKernels, GemmF32IsExactOnIntegersOnEveryShape) {
  const auto small = [](int64_t i, int64_t salt) {
    return static_cast<float>((i * 7 + salt * 13) % 17 - 8);
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const VecKernels* kv : variants()) {
    SCOPED_TRACE(kv->isa);
    for (int64_t m : {1, 2, 3, 4, 5, 7, 8, 9, 17}) {
      for (int64_t k : {1, 2, 5, 16}) {
        for (int64_t n : {0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 48, 65}) {
          for (bool trans_a : {false, true}) {
            for (float beta : {0.0f, 0.5f}) {
              SCOPED_TRACE(::testing::Message() << "m " << m << " k " << k << " n " << n
                                                << " trans_a " << trans_a << " beta " << beta);
              const float alpha = 2.0f;
              const int64_t ldc = n + 3, ldb = n + 2;
              const int64_t lda = (trans_a ? m : k) + 1;
              const int64_t a_row = trans_a ? 1 : lda, a_step = trans_a ? lda : 1;
              std::vector<float> a(static_cast<size_t>(lda * ((trans_a ? k : m) + 1)));
              std::vector<float> b(static_cast<size_t>(ldb * (k + 1)));
              std::vector<float> c(static_cast<size_t>(ldc * (m + 1)));
              for (size_t i = 0; i < a.size(); ++i) a[i] = small(static_cast<int64_t>(i), 1);
              for (size_t i = 0; i < b.size(); ++i) b[i] = small(static_cast<int64_t>(i), 2);
              for (size_t i = 0; i < c.size(); ++i) {
                c[i] = beta == 0.0f && i % 3 == 0 ? nan : small(static_cast<int64_t>(i), 3);
              }
              std::vector<float> want = c;
              for (int64_t i = 0; i < m; ++i) {
                for (int64_t j = 0; j < n; ++j) {
                  double sum = 0;
                  for (int64_t p = 0; p < k; ++p) {
                    sum += double{a[static_cast<size_t>(i * a_row + p * a_step)]} *
                           double{b[static_cast<size_t>(p * ldb + j)]};
                  }
                  float& w = want[static_cast<size_t>(i * ldc + j)];
                  w = static_cast<float>(alpha * sum + (beta == 0.0f ? 0.0 : beta * double{w}));
                }
              }
              kv->gemm_f32(c.data(), ldc, a.data(), a_row, a_step, b.data(), ldb, m, k, n, alpha,
                           beta);
              ASSERT_EQ(c.size(), want.size());
              for (size_t i = 0; i < c.size(); ++i) {
                if (std::isnan(want[i])) {
                  EXPECT_TRUE(std::isnan(c[i])) << "at " << i;
                } else {
                  EXPECT_EQ(c[i], want[i]) << "at " << i;
                }
              }
            }
          }
        }
      }
    }
  }
}

TEST(NativeVecKernels, GemmF64TileSumsInIncreasingOrderOnEveryVariant) {
  // Non-integer values, so the order and the fusing of every rounding show:
  // each element must be the fused (AVX2, AVX-512) or two-rounding
  // (baseline) sum from zero in increasing p, then alpha * S + beta * C.
  std::mt19937_64 g(17);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const VecKernels* kv : variants()) {
    SCOPED_TRACE(kv->isa);
    const bool fused = std::strcmp(kv->isa, "default") != 0;
    const int64_t rows = kv->gemm_f64_rows, cols = kv->gemm_f64_cols;
    ASSERT_GT(rows, 0);
    ASSERT_GT(cols, 0);
    const auto madd = [fused](double x, double y, double z) {
      if (fused) return std::fma(x, y, z);
      const double product = x * y;
      return product + z;
    };
    for (int64_t k : {1, 2, 7, 128}) {
      for (double beta : {0.0, 0.5}) {
        SCOPED_TRACE(::testing::Message() << "k " << k << " beta " << beta);
        const double alpha = 1.5;
        const int64_t ldc = cols + 3;
        std::vector<double> a(static_cast<size_t>(k * rows)), b(static_cast<size_t>(k * cols));
        std::vector<double> c(static_cast<size_t>(rows * ldc));
        for (double& x : a) x = d(g);
        for (double& x : b) x = d(g);
        for (size_t i = 0; i < c.size(); ++i) c[i] = beta == 0.0 && i % 3 == 0 ? nan : d(g);
        std::vector<double> want = c;
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t j = 0; j < cols; ++j) {
            double sum = 0.0;
            for (int64_t p = 0; p < k; ++p) {
              sum = madd(a[static_cast<size_t>(p * rows + r)], b[static_cast<size_t>(p * cols + j)],
                         sum);
            }
            double& w = want[static_cast<size_t>(r * ldc + j)];
            const double scaled = sum * alpha;
            w = beta == 0.0 ? scaled : madd(w, beta, scaled);
          }
        }
        kv->gemm_f64_tile(c.data(), ldc, a.data(), b.data(), k, alpha, beta);
        // Bits, NaN included: the padding columns past the tile keep theirs.
        EXPECT_TRUE(same_bytes(c.data(), want.data(), c.size() * sizeof(double)));
      }
    }
  }
}

TEST(NativeVecKernels, SelectedVariantIsSupported) {
  const VecKernels& k = st::native::cpu::vec_kernels();
  EXPECT_EQ(st::native::cpu::vec_kernels_for(k.isa), &k);
}

// Uncapped, a CPU with AVX-512 runs the avx512_256 table when its AVX-512
// is 256 bits wide (AMD family 19h: Zen 4), else the avx512 one.
TEST(NativeVecKernels, Avx512ChoiceFollowsTheWidthOfTheUnits) {
  if (std::getenv("ST_CPU_CAPABILITY") != nullptr) GTEST_SKIP() << "ST_CPU_CAPABILITY caps it";
  if (st::native::cpu::vec_kernels_for("avx512") == nullptr) GTEST_SKIP() << "no AVX-512";
  __builtin_cpu_init();
  const bool units_256 = __builtin_cpu_is("amdfam19h") != 0;
  EXPECT_STREQ(st::native::cpu::vec_kernels().isa, units_256 ? "avx512_256" : "avx512");
}

}  // namespace
