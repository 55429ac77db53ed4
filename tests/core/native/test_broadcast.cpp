// Shape broadcasting (infer_size).
#include <gtest/gtest.h>

#include <st/native/broadcast.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;

TEST(NativeBroadcast, InferSizeAlignsTrailingDims) {
  EXPECT_EQ(st::native::infer_size({3, 1}, {4}), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(st::native::infer_size({}, {2, 3}), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(st::native::infer_size({1, 0}, {5, 1}), (std::vector<int64_t>{5, 0}));
  EXPECT_EQ(st::native::infer_size({2, 1, 3}, {4, 1}), (std::vector<int64_t>{2, 4, 3}));
}

TEST(NativeBroadcast, InferSizeNamesTheMismatch) {
  EXPECT_NATIVE_ERROR(st::native::infer_size({2, 3}, {2, 4}),
                      "The size of tensor a (3) must match the size of tensor b (4) at "
                      "non-singleton dimension 1");
}

}  // namespace
