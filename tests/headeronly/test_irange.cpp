#include <torch/headeronly/util/irange.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

template <typename Range>
auto collect(const Range& r) {
  std::vector<int64_t> out;
  for (const auto i : r) {
    out.push_back(static_cast<int64_t>(i));
  }
  return out;
}

TEST(IRange, CountsFromZero) {
  EXPECT_EQ(collect(c10::irange(4)), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(collect(c10::irange(0)), std::vector<int64_t>{});
}

TEST(IRange, NegativeEndIsEmpty) {
  EXPECT_EQ(collect(c10::irange(-3)), std::vector<int64_t>{});
  EXPECT_EQ(collect(c10::irange(int8_t{-1})), std::vector<int64_t>{});
}

TEST(IRange, BeginEnd) {
  EXPECT_EQ(collect(c10::irange(-2, 2)), (std::vector<int64_t>{-2, -1, 0, 1}));
  EXPECT_EQ(collect(c10::irange(5, 7)), (std::vector<int64_t>{5, 6}));
  // An end before the begin is an empty range, never a wrap-around.
  EXPECT_EQ(collect(c10::irange(7, 5)), std::vector<int64_t>{});
}

TEST(IRange, UnsignedBounds) {
  EXPECT_EQ(collect(c10::irange(size_t{3})), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(collect(c10::irange(2, uint8_t{4})), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(collect(c10::irange(uint32_t{0})), std::vector<int64_t>{});
}

TEST(IRange, LoopVariableHasTheEndType) {
  for (const auto i : c10::irange(int64_t{1})) {
    static_assert(std::is_same_v<std::decay_t<decltype(i)>, int64_t>);
    EXPECT_EQ(i, 0);
  }
  for (const auto i : c10::irange(0, uint16_t{1})) {
    static_assert(std::is_same_v<std::decay_t<decltype(i)>, uint16_t>);
    EXPECT_EQ(i, 0u);
  }
}

TEST(IRange, IsConstexpr) {
  constexpr auto r = torch::headeronly::irange(3);
  static_assert(*r.begin() == 0);
  static_assert(r.begin() != r.end());
  int sum = 0;
  for (auto it = r.begin(); it != r.end(); it++) {
    sum += *it;
  }
  EXPECT_EQ(sum, 3);
}

}  // namespace
