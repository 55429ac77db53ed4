#include <torch/headeronly/util/HeaderOnlyArrayRef.h>

#include <gtest/gtest.h>

#include <type_traits>

#include <array>
#include <sstream>
#include <vector>

namespace {

using torch::headeronly::HeaderOnlyArrayRef;
using torch::headeronly::IntHeaderOnlyArrayRef;

int64_t sum(IntHeaderOnlyArrayRef a) {
  int64_t s = 0;
  for (int64_t v : a) s += v;
  return s;
}

TEST(HeaderOnlyArrayRef, ViewsWithoutCopying) {
  std::vector<int64_t> v{1, 2, 3, 4};
  IntHeaderOnlyArrayRef ref(v);
  EXPECT_EQ(ref.data(), v.data());
  EXPECT_EQ(ref.size(), 4u);
  EXPECT_EQ(ref[2], 3);
  EXPECT_EQ(ref.front(), 1);
  EXPECT_EQ(ref.back(), 4);
  v[0] = 10;  // the view sees changes to what it views
  EXPECT_EQ(ref[0], 10);
}

TEST(HeaderOnlyArrayRef, ConstructionForms) {
  EXPECT_EQ(sum({1, 2, 3}), 6);
  const int64_t one = 7;
  EXPECT_EQ(sum(one), 7);
  std::array<int64_t, 3> arr{4, 5, 6};
  EXPECT_EQ(sum(arr), 15);
  const int64_t carr[2] = {8, 9};
  EXPECT_EQ(sum(carr), 17);
  EXPECT_EQ(sum(IntHeaderOnlyArrayRef(carr, carr + 2)), 17);
  EXPECT_EQ(sum(IntHeaderOnlyArrayRef(carr, 1)), 8);
  IntHeaderOnlyArrayRef empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.begin(), empty.end());
  EXPECT_TRUE(IntHeaderOnlyArrayRef({}).empty());
}

TEST(HeaderOnlyArrayRef, CheckedAccessAndSlices) {
  std::vector<int64_t> v{1, 2, 3, 4, 5};
  IntHeaderOnlyArrayRef ref(v);
  EXPECT_EQ(ref.at(4), 5);
  try {
    (void)ref.at(5);
    FAIL() << "at(5) on a view of 5 must throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("invalid index 5; size is 5"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(ref.slice(1, 3).vec(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(ref.slice(3).vec(), (std::vector<int64_t>{4, 5}));
  EXPECT_TRUE(ref.slice(5).empty());
  EXPECT_THROW((void)ref.slice(4, 2), std::runtime_error);
  EXPECT_THROW((void)ref.slice(6), std::runtime_error);
  EXPECT_THROW((void)IntHeaderOnlyArrayRef().front(), std::runtime_error);
  EXPECT_THROW((void)IntHeaderOnlyArrayRef().back(), std::runtime_error);
}

TEST(HeaderOnlyArrayRef, EqualityReverseAndPrinting) {
  std::vector<int64_t> a{1, 2, 3};
  std::vector<int64_t> b{1, 2, 3};
  std::vector<int64_t> c{1, 2};
  EXPECT_TRUE(IntHeaderOnlyArrayRef(a) == IntHeaderOnlyArrayRef(b));
  EXPECT_TRUE(IntHeaderOnlyArrayRef(a) != IntHeaderOnlyArrayRef(c));
  std::vector<int64_t> reversed(IntHeaderOnlyArrayRef(a).rbegin(), IntHeaderOnlyArrayRef(a).rend());
  EXPECT_EQ(reversed, (std::vector<int64_t>{3, 2, 1}));
  std::ostringstream os;
  os << IntHeaderOnlyArrayRef(a);
  EXPECT_EQ(os.str(), "[1, 2, 3]");
  const std::vector<double> dv{0.5, 1.5};
  HeaderOnlyArrayRef<double> d(dv);
  EXPECT_DOUBLE_EQ(d[1], 1.5);
}

TEST(HeaderOnlyArrayRef, AllMatch) {
  const std::vector<int64_t> v = {2, 4, 6};
  const IntHeaderOnlyArrayRef ref(v);
  EXPECT_TRUE(ref.allMatch([](const int64_t& x) { return x % 2 == 0; }));
  EXPECT_FALSE(ref.allMatch([](const int64_t& x) { return x < 5; }));
  EXPECT_TRUE(IntHeaderOnlyArrayRef().allMatch([](const int64_t&) { return false; }));
  // Assigning from a temporary is refused at compile time.
  static_assert(!std::is_assignable_v<IntHeaderOnlyArrayRef&, int64_t&&>);
}

}  // namespace
