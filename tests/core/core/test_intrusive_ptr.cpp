#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include <st/core/intrusive_ptr.h>

namespace {

struct Counted : st::intrusive_ptr_target {
  explicit Counted(int* alive) : alive_(alive) { ++*alive_; }
  ~Counted() override { --*alive_; }
  int* alive_;
};

struct Derived : Counted {
  using Counted::Counted;
};

TEST(IntrusivePtr, CountsAndDestroys) {
  int alive = 0;
  {
    auto p = st::make_intrusive<Counted>(&alive);
    EXPECT_EQ(alive, 1);
    EXPECT_EQ(p.use_count(), 1u);
    auto q = p;
    EXPECT_EQ(p.use_count(), 2u);
    auto r = std::move(q);
    EXPECT_FALSE(q);
    EXPECT_EQ(r.use_count(), 2u);
    r.reset();
    EXPECT_EQ(p.use_count(), 1u);
    EXPECT_TRUE(p.unique());
  }
  EXPECT_EQ(alive, 0);
}

TEST(IntrusivePtr, UpcastAndCompare) {
  int alive = 0;
  st::intrusive_ptr<Derived> d = st::make_intrusive<Derived>(&alive);
  st::intrusive_ptr<Counted> b = d;
  EXPECT_EQ(b.use_count(), 2u);
  EXPECT_TRUE(b == d);
  st::intrusive_ptr<Counted> moved = std::move(d);
  EXPECT_EQ(moved.use_count(), 2u);
  EXPECT_TRUE(d == nullptr);
}

TEST(IntrusivePtr, ReleaseReclaimNonOwning) {
  int alive = 0;
  auto p = st::make_intrusive<Counted>(&alive);
  Counted* raw = p.release();
  EXPECT_EQ(raw->use_count(), 1u);
  auto borrowed = st::intrusive_ptr<Counted>::unsafe_reclaim_from_nonowning(raw);
  EXPECT_EQ(raw->use_count(), 2u);
  borrowed.reset();
  auto owned = st::intrusive_ptr<Counted>::reclaim(raw);
  EXPECT_EQ(owned.use_count(), 1u);
  owned.reset();
  EXPECT_EQ(alive, 0);
}

TEST(IntrusivePtr, ConcurrentCopies) {
  int alive = 0;
  auto p = st::make_intrusive<Counted>(&alive);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([p] {
      for (int i = 0; i < 10000; ++i) {
        auto copy = p;
        (void)copy;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(p.use_count(), 1u);
  p.reset();
  EXPECT_EQ(alive, 0);
}

}  // namespace
