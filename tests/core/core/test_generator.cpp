#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include <st/core/generator.h>

#include "tensor_test_util.h"

namespace {

using st::testing::error_of;

// Known-answer vectors of Philox4x32-10 (Random123's published tests).
TEST(Generator, PhiloxKnownAnswers) {
  EXPECT_EQ(st::philox4x32_10({0, 0, 0, 0}, {0, 0}),
            (std::array<uint32_t, 4>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(
      st::philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
      (std::array<uint32_t, 4>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(
      st::philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
      (std::array<uint32_t, 4>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(Generator, SeedReproducible) {
  st::Generator a = st::make_cpu_generator(42);
  st::Generator b = st::make_cpu_generator(42);
  st::Generator c = st::make_cpu_generator(43);
  std::vector<uint32_t> va, vb, vc;
  for (int i = 0; i < 10; ++i) {
    va.push_back(a.cpu()->random());
    vb.push_back(b.cpu()->random());
    vc.push_back(c.cpu()->random());
  }
  EXPECT_EQ(va, vb);
  EXPECT_NE(va, vc);
  a->set_current_seed(42);
  EXPECT_EQ(a->current_seed(), 42u);
  EXPECT_EQ(a.cpu()->random(), va[0]);
}

TEST(Generator, StateSaveRestore) {
  st::Generator g = st::make_cpu_generator(7);
  g.cpu()->random();  // mid-block
  const std::vector<uint8_t> state = g->get_state();
  EXPECT_EQ(state.size(), st::CPUGeneratorImpl::kStateSize);
  std::vector<uint32_t> first;
  for (int i = 0; i < 9; ++i) first.push_back(g.cpu()->random());
  g->set_state(state);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(g.cpu()->random(), first[static_cast<size_t>(i)]);
  EXPECT_EQ(error_of([&] { g->set_state(std::vector<uint8_t>(5)); }),
            "CPUGenerator::set_state: expected a state of 32 bytes, got 5");
  EXPECT_NE(error_of([&] {
              g->set_state(std::vector<uint8_t>(32, 0));
            }).find("expected a CPU Philox state"),
            std::string::npos);
}

TEST(Generator, UniformRangesAndReserve) {
  st::Generator g = st::make_cpu_generator(1);
  for (int i = 0; i < 1000; ++i) {
    const double d = g.cpu()->uniform_double();
    const float f = g.cpu()->uniform_float();
    ASSERT_GE(d, 0.0);
    ASSERT_LT(d, 1.0);
    ASSERT_GE(f, 0.0f);
    ASSERT_LT(f, 1.0f);
  }
  auto r1 = g.cpu()->philox_reserve(10);
  auto r2 = g.cpu()->philox_reserve(5);
  EXPECT_EQ(r2.counter, r1.counter + 10);
  EXPECT_EQ(r1.seed, 1u);
}

// fill_words gives the words random() would, from any position in a block
// (a partly used block first, whole blocks, then the start of one), and
// leaves the generator where those calls would.
TEST(Generator, FillWordsMatchesSingleDraws) {
  for (const size_t skip : {0u, 1u, 3u}) {
    for (const size_t n : {0u, 1u, 2u, 4u, 7u, 9u, 31u, 32u, 33u, 35u, 70u, 1030u}) {
      st::Generator a = st::make_cpu_generator(9);
      st::Generator b = st::make_cpu_generator(9);
      for (size_t i = 0; i < skip; ++i) {
        a.cpu()->random();
        b.cpu()->random();
      }
      std::vector<uint32_t> bulk(n + 1, 0xdeadbeef);
      a.cpu()->fill_words(bulk.data(), n);
      for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(bulk[i], b.cpu()->random()) << "skip " << skip << " n " << n << " word " << i;
      EXPECT_EQ(bulk[n], 0xdeadbeefu) << "wrote past the end";
      EXPECT_EQ(a.cpu()->random(), b.cpu()->random()) << "skip " << skip << " n " << n;
      EXPECT_EQ(a->get_state(), b->get_state());
    }
  }
}

// The same across the carry of the block counter into its high word: the
// bulk blocks (vector kernel) and single draws (scalar function) agree.
TEST(Generator, FillWordsAcrossCounterCarry) {
  st::Generator a = st::make_cpu_generator(0x0123456789abcdefull);
  std::vector<uint8_t> state = a->get_state();
  const uint64_t counter = 0xfffffff9ull;  // 7 blocks below 2^32
  std::memcpy(state.data() + 16, &counter, sizeof(counter));
  a->set_state(state);
  st::Generator b = st::make_cpu_generator();
  b->set_state(state);
  std::vector<uint32_t> bulk(4 * 20 + 3);
  a.cpu()->fill_words(bulk.data(), bulk.size());
  for (size_t i = 0; i < bulk.size(); ++i) ASSERT_EQ(bulk[i], b.cpu()->random()) << i;
  EXPECT_EQ(a->get_state(), b->get_state());
}

// A stream gives the generator's words in order, and the generator ends
// where the same single draws leave it: when the caller consumes exactly
// what it announced, less than a batch, or more (a redraw).
TEST(Generator, RandomWordStreamMatchesSingleDraws) {
  for (const uint64_t announced : {5u, 1024u, 2500u}) {
    for (const uint64_t consumed : {announced, announced + 3}) {
      st::Generator a = st::make_cpu_generator(11);
      st::Generator b = st::make_cpu_generator(11);
      {
        st::RandomWordStream words(a.cpu(), announced);
        for (uint64_t i = 0; i < consumed; ++i) ASSERT_EQ(words.next(), b.cpu()->random()) << i;
      }
      EXPECT_EQ(a->get_state(), b->get_state()) << announced << " " << consumed;
    }
  }
  st::Generator a = st::make_cpu_generator(12);
  st::Generator b = st::make_cpu_generator(12);
  st::RandomWordStream words(a.cpu(), 6);
  EXPECT_EQ(words.next64(), b.cpu()->random64());
  EXPECT_EQ(words.uniform_double(), b.cpu()->uniform_double());
  EXPECT_EQ(words.uniform_float(), b.cpu()->uniform_float());
}

TEST(Generator, ThreadSafeSharedUse) {
  st::Generator g = st::make_cpu_generator(3);
  std::vector<std::vector<uint32_t>> out(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 1000; ++i) out[static_cast<size_t>(t)].push_back(g.cpu()->random());
    });
  }
  for (auto& t : threads) t.join();
  // Together the threads consumed exactly the first 4000 outputs.
  std::multiset<uint32_t> seen;
  for (auto& v : out) seen.insert(v.begin(), v.end());
  st::Generator h = st::make_cpu_generator(3);
  std::multiset<uint32_t> expected;
  for (int i = 0; i < 4000; ++i) expected.insert(h.cpu()->random());
  EXPECT_EQ(seen, expected);
}

TEST(Generator, DefaultGenerator) {
  st::manual_seed(123);
  const uint32_t x = st::default_cpu_generator().cpu()->random();
  st::manual_seed(123);
  EXPECT_EQ(st::default_cpu_generator().cpu()->random(), x);
  EXPECT_TRUE(st::default_cpu_generator().device().is_cpu());
  EXPECT_EQ(error_of([] { st::Generator().cpu(); }), "Generator: expected a defined generator");
}

}  // namespace
