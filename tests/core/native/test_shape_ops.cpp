// View and shape operators through the dispatcher.
#include <gtest/gtest.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;

TEST(NativeShapeOps, ViewsShareStorage) {
  Tensor a = make({0, 1, 2, 3, 4, 5}, {2, 3});
  for (const Tensor& v :
       {st::view(a, {3, 2}), st::reshape(a, {6}), st::flatten(a), st::transpose(a, 0, 1), st::t(a),
        st::permute(a, {1, 0}), st::narrow(a, 1, 1, 2), st::select(a, 0, 1),
        st::slice(a, 1, 0, 3, 2), st::unsqueeze(a, 0), st::squeeze(st::unsqueeze(a, 1)),
        st::expand(st::unsqueeze(a, 0), {4, 2, 3}), st::as_strided(a, {2}, {3}),
        st::unflatten(a, 1, {3, 1})}) {
    EXPECT_TRUE(v.is_alias_of(a));
  }
  expect_close(values(st::t(a)), {0, 3, 1, 4, 2, 5});
  expect_close(values(st::slice(a, 1, 0, 3, 2)), {0, 2, 3, 5});
  expect_close(values(st::select(a, 1, -1)), {2, 5});
  EXPECT_EQ(shape(st::squeeze(make({1}, {1, 1, 1}), std::vector<int64_t>{0, 2})),
            (std::vector<int64_t>{1}));
  EXPECT_EQ(shape(st::squeeze(make({1}, {1, 1}), 1)), (std::vector<int64_t>{1}));
  EXPECT_EQ(st::view(a, ScalarType::Int).dtype(), ScalarType::Int);
  EXPECT_NATIVE_ERROR(st::view(a, {4}), "shape '[4]' is invalid for input of size 6");
}

TEST(NativeShapeOps, ReshapeCopiesWhenItMust) {
  Tensor a = st::transpose(make({0, 1, 2, 3, 4, 5}, {2, 3}), 0, 1);
  Tensor r = st::reshape(a, {6});
  EXPECT_FALSE(r.is_alias_of(a));
  expect_close(values(r), {0, 3, 1, 4, 2, 5});
}

TEST(NativeShapeOps, Flip) {
  Tensor a = make({0, 1, 2, 3, 4, 5}, {2, 3});
  expect_close(values(st::flip(a, {0})), {3, 4, 5, 0, 1, 2});
  expect_close(values(st::flip(a, {0, 1})), {5, 4, 3, 2, 1, 0});
  expect_close(values(st::flip(st::t(a), {-1})), {3, 0, 4, 1, 5, 2});
  Tensor out = st::empty({0});
  st::flip_out(out, a, {1});
  expect_close(values(out), {2, 1, 0, 5, 4, 3});
}

// flip.out writes straight into an out of self's dtype, whatever its
// strides; an out sharing self's memory or of another dtype goes through a
// temporary, so the result is the same.
TEST(NativeShapeOps, FlipOutStridedAliasedConvertedAndEmpty) {
  Tensor a = make({0, 1, 2, 3, 4, 5}, {2, 3});
  Tensor out = st::t(st::empty({3, 2}));  // [2, 3], strides [1, 2]
  st::flip_out(out, a, {0, 1});
  expect_close(values(out), {5, 4, 3, 2, 1, 0});
  Tensor self = make({0, 1, 2, 3, 4, 5}, {2, 3});
  st::flip_out(self, self, {1});
  expect_close(values(self), {2, 1, 0, 5, 4, 3});
  Tensor d = st::empty({0}, ScalarType::Double);
  st::flip_out(d, a, {0});
  EXPECT_EQ(d.scalar_type(), ScalarType::Double);
  expect_close(values(d), {3, 4, 5, 0, 1, 2});
  Tensor e = st::empty({0});
  st::flip_out(e, st::empty({0, 4}), {0});
  EXPECT_EQ(shape(e), (std::vector<int64_t>{0, 4}));
  EXPECT_NATIVE_ERROR(st::flip_out(e, a, {2}), "out of range");
}

// A flipped dim of a strided, offset input (every other element).
TEST(NativeShapeOps, FlipOfStridedInput) {
  Tensor a = make({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
  Tensor s = st::slice(a, 1, 1, 4, 2);  // [3, 2]: 1 3 / 5 7 / 9 11
  expect_close(values(st::flip(s, {1})), {3, 1, 7, 5, 11, 9});
  expect_close(values(st::flip(s, {0, 1})), {11, 9, 7, 5, 3, 1});
}

// flip lays its result out as self (empty_like with Preserve).
TEST(NativeShapeOps, FlipFollowsSelfLayout) {
  Tensor a = st::t(make({1, 2, 3, 4, 5, 6}, {2, 3}));  // [3, 2], strides [1, 3]
  Tensor f = st::flip(a, {0});
  EXPECT_EQ(std::vector<int64_t>(f.strides().begin(), f.strides().end()),
            (std::vector<int64_t>{1, 3}));
  expect_close(values(f), {3, 6, 2, 5, 1, 4});
}

TEST(NativeShapeOps, ConstantPadAndPad) {
  Tensor a = make({1, 2, 3, 4}, {2, 2});
  Tensor p = st::constant_pad_nd(a, {1, 0}, 9);
  EXPECT_EQ(shape(p), (std::vector<int64_t>{2, 3}));
  expect_close(values(p), {9, 1, 2, 9, 3, 4});
  Tensor q = st::pad(a, {0, 0, 1, 1});
  EXPECT_EQ(shape(q), (std::vector<int64_t>{4, 2}));
  expect_close(values(q), {0, 0, 1, 2, 3, 4, 0, 0});
  Tensor crop = st::constant_pad_nd(a, {-1, 0});
  expect_close(values(crop), {2, 4});
  expect_close(values(st::pad(a, {1, 1}, "constant", 0.5)), {0.5, 1, 2, 0.5, 0.5, 3, 4, 0.5});
  EXPECT_NATIVE_ERROR(st::constant_pad_nd(a, {1}),
                      "Length of pad must be even but instead it equals 1");
  // fuzz_call_dispatcher: size + lo + hi overflowed int64.
  EXPECT_NATIVE_ERROR(st::constant_pad_nd(a, {INT64_MIN + 1, -4}), "overflows int64");
  EXPECT_NATIVE_ERROR(st::constant_pad_nd(a, {INT64_MAX, 1}), "overflows int64");
  EXPECT_NATIVE_ERROR(st::constant_pad_nd(a, {1, 1, 1, 1, 1, 1}),
                      "Length of pad should be no more than twice the number of dimensions");
  EXPECT_NATIVE_ERROR(st::constant_pad_nd(a, {-2, -1}), "resulted in a negative output size");
  EXPECT_NATIVE_ERROR(st::pad(a, {1, 1}, "reflect", 1.0), "doesn't take in value argument");
}

}  // namespace
