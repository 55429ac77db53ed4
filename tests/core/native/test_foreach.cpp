// _foreach_mul.List, _foreach_mul_.List, _foreach_add.List, _foreach_add_.List
// and the tensor predicates is_leaf and is_pinned.
#include <gtest/gtest.h>

#include <st/dispatch/dispatcher.h>

#include "native/random_tensors.h"

namespace {

using namespace st_native_test;

TEST(NativeForeach, MulAddLists) {
  std::vector<Tensor> a = {make1({1, 2}), make({3}, {}, ScalarType::Long)};
  std::vector<Tensor> b = {make1({4, 5}), make1({2, 3}, ScalarType::Double)};
  auto m = st::_foreach_mul(a, b);
  ASSERT_EQ(m.size(), 2u);
  expect_close(values(m[0]), {4, 10});
  EXPECT_EQ(m[1].dtype(), ScalarType::Double);  // per-pair type promotion and broadcasting
  expect_close(values(m[1]), {6, 9});
  auto s = st::_foreach_add(a, b, 2);
  expect_close(values(s[0]), {9, 12});
  expect_close(values(s[1]), {7, 9});
  expect_close(values(a[0]), {1, 2});  // inputs unchanged

  std::vector<Tensor> x = {make1({1, 2}), relayout(make({1, 2, 3, 4}, {2, 2}), 1)};
  std::vector<Tensor> y = {make1({3, 3}), make1({10, 100})};
  st::_foreach_mul_(x, y);
  expect_close(values(x[0]), {3, 6});
  expect_close(values(x[1]), {10, 200, 30, 400});
  st::_foreach_add_(x, y, -1);
  expect_close(values(x[0]), {0, 3});
  expect_close(values(x[1]), {0, 100, 20, 300});

  EXPECT_NATIVE_ERROR(
      st::_foreach_mul(a, std::vector<Tensor>{b[0]}),
      "_foreach_mul: Tensor lists must have the same number of tensors, got 2 and 1");
  EXPECT_NATIVE_ERROR(st::_foreach_add(std::vector<Tensor>{}, std::vector<Tensor>{}),
                      "_foreach_add: Tensor list must have at least one tensor.");
  std::vector<Tensor> wide = {st::ones({2})};
  std::vector<Tensor> bad = {st::ones({3})};
  EXPECT_NATIVE_ERROR(st::_foreach_mul_(wide, bad), "must match the size");
}

TEST(NativeForeach, IsLeaf) {
  Tensor t = st::ones({2});
  EXPECT_TRUE(st::is_leaf(t));

  // Extensions reach it by name, boxed.
  auto op = st::Dispatcher::singleton().findSchemaOrThrow("aten::is_leaf", "");
  EXPECT_EQ(op.schema().toString(), "aten::is_leaf(Tensor self) -> bool");
  st::Stack stack;
  stack.emplace_back(t);
  op.callBoxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_TRUE(stack[0].toBool());
}

TEST(NativeForeach, IsPinnedIsFalseForEveryTensorAndDevice) {
  Tensor t = st::ones({2});
  EXPECT_FALSE(st::is_pinned(t));
  EXPECT_FALSE(st::is_pinned(t, st::Device(st::DeviceType::CPU)));
  auto op = st::Dispatcher::singleton().findSchemaOrThrow("aten::is_pinned", "");
  EXPECT_EQ(op.schema().toString(), "aten::is_pinned(Tensor self, Device? device=None) -> bool");
  st::Stack stack;
  stack.emplace_back(t);
  stack.emplace_back(std::nullopt);
  op.callBoxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_FALSE(stack[0].toBool());
}

}  // namespace
