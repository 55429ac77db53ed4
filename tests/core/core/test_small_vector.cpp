// SmallVector: inline storage up to N, heap past it, and element lifetimes
// (every element constructed is destroyed once) across growth, copies and
// moves.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <st/core/small_vector.h>

namespace {

using st::SmallVector;

// Counts live objects, so a leak or a double destruction shows.
struct Tracked {
  static int live;
  int value;
  explicit Tracked(int v = 0) : value(v) { ++live; }
  Tracked(const Tracked& o) : value(o.value) { ++live; }
  Tracked(Tracked&& o) noexcept : value(o.value) {
    o.value = -1;
    ++live;
  }
  Tracked& operator=(const Tracked&) = default;
  ~Tracked() { --live; }
};
int Tracked::live = 0;

std::vector<int> values(const SmallVector<Tracked, 2>& v) {
  std::vector<int> out;
  for (const Tracked& t : v) out.push_back(t.value);
  return out;
}

TEST(SmallVector, StaysInlineUpToNThenGrowsOnTheHeap) {
  SmallVector<int64_t, 3> v;
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.capacity(), 3u);
  for (int64_t i = 0; i < 3; ++i) v.push_back(i);
  EXPECT_FALSE(v.on_heap());
  v.push_back(3);
  EXPECT_TRUE(v.on_heap());
  EXPECT_GE(v.capacity(), 4u);
  EXPECT_EQ(std::vector<int64_t>(v.begin(), v.end()), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(v.back(), 3);
  const st::IntArrayRef ref = v;
  EXPECT_EQ(ref.size(), 4u);
  EXPECT_EQ(ref[2], 2);
}

TEST(SmallVector, ResizeAssignAndClear) {
  SmallVector<int64_t, 4> v(2, 7);
  v.resize(5);  // new elements are zero, past the inline room
  EXPECT_EQ(std::vector<int64_t>(v.begin(), v.end()), (std::vector<int64_t>{7, 7, 0, 0, 0}));
  v.resize(2);
  EXPECT_EQ(v.size(), 2u);
  v.resize(3, 9);
  EXPECT_EQ(std::vector<int64_t>(v.begin(), v.end()), (std::vector<int64_t>{7, 7, 9}));
  v.assign(1, 1);
  EXPECT_EQ(std::vector<int64_t>(v.begin(), v.end()), (std::vector<int64_t>{1}));
  const int64_t list[] = {4, 5, 6};
  v.assign(std::begin(list), std::end(list));
  EXPECT_EQ(std::vector<int64_t>(v.begin(), v.end()), (std::vector<int64_t>{4, 5, 6}));
  v.clear();
  EXPECT_TRUE(v.empty());
  SmallVector<int64_t, 2> from_list{1, 2, 3};
  EXPECT_EQ(std::vector<int64_t>(from_list.begin(), from_list.end()),
            (std::vector<int64_t>{1, 2, 3}));
}

TEST(SmallVector, PushingItsOwnElementWhileGrowingCopiesItFirst) {
  SmallVector<std::string, 1> v;
  v.push_back(std::string(64, 'a'));  // long enough to live on the heap
  v.push_back(v[0]);                  // grows: v[0] moves during the push
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1], std::string(64, 'a'));
  EXPECT_EQ(v[0], v[1]);
  v.resize(4, v[0]);  // grows again, from an element
  EXPECT_EQ(v[3], v[0]);
}

TEST(SmallVector, EveryElementIsDestroyedOnce) {
  Tracked::live = 0;
  {
    SmallVector<Tracked, 2> inline_v;
    inline_v.emplace_back(1);
    inline_v.emplace_back(2);
    SmallVector<Tracked, 2> heap_v;
    for (int i = 0; i < 5; ++i) heap_v.emplace_back(i);
    EXPECT_EQ(Tracked::live, 7);

    SmallVector<Tracked, 2> copy(heap_v);
    EXPECT_EQ(values(copy), (std::vector<int>{0, 1, 2, 3, 4}));
    EXPECT_EQ(Tracked::live, 12);

    // A move takes a heap block as it is, and inline elements one by one.
    SmallVector<Tracked, 2> moved_heap(std::move(heap_v));
    EXPECT_TRUE(heap_v.empty());
    EXPECT_EQ(values(moved_heap), (std::vector<int>{0, 1, 2, 3, 4}));
    SmallVector<Tracked, 2> moved_inline(std::move(inline_v));
    EXPECT_TRUE(inline_v.empty());
    EXPECT_EQ(values(moved_inline), (std::vector<int>{1, 2}));
    EXPECT_EQ(Tracked::live, 12);

    // Assignment replaces what was there, in both directions.
    moved_inline = copy;
    EXPECT_EQ(values(moved_inline), (std::vector<int>{0, 1, 2, 3, 4}));
    copy = std::move(moved_heap);
    EXPECT_EQ(values(copy), (std::vector<int>{0, 1, 2, 3, 4}));
    SmallVector<Tracked, 2> small;
    small.emplace_back(8);
    copy = std::move(small);
    EXPECT_EQ(values(copy), (std::vector<int>{8}));
    EXPECT_EQ(Tracked::live, 6);  // copy 1, moved_inline 5
    copy.resize(0);
    EXPECT_EQ(Tracked::live, 5);
  }
  EXPECT_EQ(Tracked::live, 0);
}

}  // namespace
