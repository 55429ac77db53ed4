// Random operators: seeding, explicit generators, the default generator,
// and the checks of each op.
#include <gtest/gtest.h>

#include <set>

#include <st/core/generator.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;

TEST(NativeRandomOps, Factories) {
  st::manual_seed(42);
  Tensor r1 = st::rand({1000});
  st::manual_seed(42);
  Tensor r2 = st::rand({1000});
  EXPECT_EQ(values(r1), values(r2));
  for (double v : values(r1)) {
    EXPECT_GE(v, 0.0);
    EXPECT_LT(v, 1.0);
  }
  Tensor n = st::randn({20000}, ScalarType::Double);
  double mean = 0, sq = 0;
  for (double v : values(n)) {
    mean += v;
    sq += v * v;
  }
  mean /= 20000;
  EXPECT_NEAR(mean, 0.0, 0.05);
  EXPECT_NEAR(sq / 20000 - mean * mean, 1.0, 0.05);
  Tensor ri = st::randint(3, 7, {500});
  EXPECT_EQ(ri.dtype(), ScalarType::Long);
  for (double v : values(ri)) {
    EXPECT_GE(v, 3);
    EXPECT_LT(v, 7);
  }
  EXPECT_EQ(shape(st::rand_like(st::empty({2, 2}))), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(st::randn_like(st::empty({2}, ScalarType::Double)).dtype(), ScalarType::Double);
  EXPECT_NATIVE_ERROR(st::rand({2}, ScalarType::Long),
                      "expected a floating point or complex dtype but got Long");
}

TEST(NativeRandomOps, SameSeedSameNumbers) {
  st::Generator a = st::make_cpu_generator(7);
  st::Generator b = st::make_cpu_generator(7);
  EXPECT_EQ(values(st::rand({64}, a)), values(st::rand({64}, b)));
  EXPECT_EQ(values(st::randn({64}, a)), values(st::randn({64}, b)));
  EXPECT_EQ(values(st::randint(0, 1000, {64}, a)), values(st::randint(0, 1000, {64}, b)));
  EXPECT_EQ(values(st::randperm(50, a)), values(st::randperm(50, b)));
  a->set_current_seed(9);
  const std::vector<double> first = values(st::rand({16}, a));
  a->set_current_seed(9);
  EXPECT_EQ(values(st::rand({16}, a)), first);
  EXPECT_EQ(a->current_seed(), 9u);
}

// The values are the generator's words, one draw after the other, whatever
// the size (chunks of words and their tails), from any position in a
// Philox block, and the generator ends where those single draws leave it.
TEST(NativeRandomOps, ValuesFollowTheGeneratorsWords) {
  for (const int64_t n : {1, 7, 1000, 1025, 2051}) {
    SCOPED_TRACE(n);
    st::Generator a = st::make_cpu_generator(5);
    st::Generator b = st::make_cpu_generator(5);
    a.cpu()->random();  // start mid-block
    b.cpu()->random();
    const std::vector<double> u = values(st::rand({n}, a));
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(u[static_cast<size_t>(i)], static_cast<double>(b.cpu()->uniform_float())) << i;
    }
    EXPECT_EQ(a->get_state(), b->get_state());
    // uniform_ over [-2, 3): from + span * u in double, rounded to float
    Tensor t = st::empty({n});
    st::uniform_(t, -2.0, 3.0, a);
    const std::vector<double> v = values(t);
    for (int64_t i = 0; i < n; ++i) {
      const double want = static_cast<float>(-2.0 + 5.0 * b.cpu()->uniform_float());
      ASSERT_EQ(v[static_cast<size_t>(i)], want) << i;
    }
    EXPECT_EQ(a->get_state(), b->get_state());
    // randint: a word modulo the range below 2^32, two words beyond
    for (const int64_t high : {int64_t{1}, int64_t{3}, int64_t{1000}, int64_t{0x80000001},
                               int64_t{0xFFFFFFFF}, int64_t{0x300000007}}) {
      SCOPED_TRACE(high);
      const std::vector<double> r = values(st::randint(-1, high - 1, {n}, a));
      const uint64_t range = static_cast<uint64_t>(high);
      for (int64_t i = 0; i < n; ++i) {
        const uint64_t w = range <= 0xFFFFFFFFull ? b.cpu()->random() : b.cpu()->random64();
        ASSERT_EQ(r[static_cast<size_t>(i)],
                  static_cast<double>(-1 + static_cast<int64_t>(w % range)))
            << i;
      }
      EXPECT_EQ(a->get_state(), b->get_state());
    }
    // randn in float32: one word per uniform, two per pair of values
    st::randn({n}, a);
    for (int64_t i = 0; i < 2 * ((n + 1) / 2); ++i) b.cpu()->random();
    EXPECT_EQ(a->get_state(), b->get_state());
  }
}

TEST(NativeRandomOps, GeneratorsAreIndependent) {
  st::Generator a = st::make_cpu_generator(3);
  st::Generator b = st::make_cpu_generator(3);
  const std::vector<double> ref = values(st::rand({8}, b));
  // Draws from a third generator and from the default one do not move a.
  st::Generator c = st::make_cpu_generator(3);
  (void)st::rand({100}, c);
  (void)st::rand({100});
  EXPECT_EQ(values(st::rand({8}, a)), ref);
  // A different seed gives a different stream.
  EXPECT_NE(values(st::rand({8}, st::make_cpu_generator(4))), ref);
  // Copies of a Generator share one state.
  st::Generator a2 = a;
  const std::vector<double> next = values(st::rand({8}, a2));
  EXPECT_EQ(values(st::rand({8}, b)), next);
}

TEST(NativeRandomOps, DefaultGeneratorWhenNoneIsPassed) {
  st::manual_seed(11);
  const std::vector<double> implicit = values(st::rand({32}));
  st::manual_seed(11);
  EXPECT_EQ(values(st::rand({32}, std::optional<st::Generator>())), implicit);
  st::manual_seed(11);
  EXPECT_EQ(values(st::rand({32}, st::default_cpu_generator())), implicit);
  st::manual_seed(11);
  Tensor u = st::empty({32});
  st::uniform_(u);
  EXPECT_EQ(values(u), implicit);
}

TEST(NativeRandomOps, OutVariantsAndInPlace) {
  st::Generator g = st::make_cpu_generator(5);
  Tensor out = st::empty({0}, ScalarType::Double);
  st::rand_out(out, {10}, g);
  EXPECT_EQ(shape(out), (std::vector<int64_t>{10}));
  Tensor u = st::empty({1000}, ScalarType::Double);
  st::uniform_(u, -2.0, 3.0, g);
  for (double v : values(u)) {
    EXPECT_GE(v, -2.0);
    EXPECT_LT(v, 3.0);
  }
  Tensor n = st::empty({20000}, ScalarType::Double);
  n.normal_(10.0, 2.0, g);
  double mean = 0;
  for (double v : values(n)) mean += v;
  EXPECT_NEAR(mean / 20000, 10.0, 0.1);
  EXPECT_NATIVE_ERROR(st::uniform_(u, 1.0, 0.0), "expected from <= to");
  EXPECT_NATIVE_ERROR(n.normal_(0.0, -1.0), "expected std >= 0.0");
  Tensor ri = st::empty({0}, ScalarType::Int);
  st::randint_out(ri, 5, {20}, g);
  for (double v : values(ri)) {
    EXPECT_GE(v, 0);
    EXPECT_LT(v, 5);
  }
  EXPECT_NATIVE_ERROR(st::randint_out(st::empty({0}, ScalarType::Bool), 10, {3}, g),
                      "to - 1 is out of bounds for Bool");
  EXPECT_TRUE(st::bernoulli(st::empty({2, 3}).t(), 0.5).is_contiguous());
}

TEST(NativeRandomOps, Randperm) {
  Tensor p = st::randperm(100, st::make_cpu_generator(1));
  EXPECT_EQ(p.dtype(), ScalarType::Long);
  std::set<double> seen;
  for (double v : values(p)) seen.insert(v);
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_EQ(*seen.begin(), 0);
  EXPECT_EQ(*seen.rbegin(), 99);
  EXPECT_EQ(st::randperm(0).numel(), 0);
  EXPECT_EQ(st::randperm(5, ScalarType::Float).dtype(), ScalarType::Float);
  EXPECT_NATIVE_ERROR(st::randperm(-1), "n must be non-negative");
  EXPECT_NATIVE_ERROR(st::randperm(300, ScalarType::Char), "n is too large for result dtype");
}

TEST(NativeRandomOps, Bernoulli) {
  st::Generator g = st::make_cpu_generator(2);
  Tensor probs = st::full({4}, 0.0, ScalarType::Double);
  probs.fill_(1.0);
  EXPECT_EQ(values(st::bernoulli(probs, g)), (std::vector<double>{1, 1, 1, 1}));
  probs.fill_(0.0);
  EXPECT_EQ(values(st::bernoulli(probs, g)), (std::vector<double>{0, 0, 0, 0}));
  Tensor half = st::bernoulli(st::empty({10000}), 0.5, g);
  double ones = 0;
  for (double v : values(half)) ones += v;
  EXPECT_NEAR(ones / 10000, 0.5, 0.03);
  EXPECT_NATIVE_ERROR(st::bernoulli(st::empty({2}), 1.5), "expected p to be in [0, 1]");
  probs.fill_(2.0);
  EXPECT_NATIVE_ERROR(st::bernoulli(probs), "expected p to be in [0, 1]");
}

}  // namespace
