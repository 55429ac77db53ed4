#include <gtest/gtest.h>

#include <cstring>

#include <st/core/storage.h>

#include "tensor_test_util.h"

namespace {

using st::testing::error_of;

TEST(Storage, AllocateAndResizeKeepsPrefix) {
  st::Storage s = st::Storage::allocate(16, st::Device("cpu"));
  EXPECT_EQ(s.nbytes(), 16u);
  EXPECT_TRUE(s->resizable());
  std::memset(s.mutable_data(), 7, 16);
  s->resize(64);
  EXPECT_EQ(s.nbytes(), 64u);
  EXPECT_EQ(static_cast<const unsigned char*>(s.data())[15], 7);
  s->resize(4);
  EXPECT_EQ(static_cast<const unsigned char*>(s.data())[3], 7);
  s->resize(0);
  EXPECT_EQ(s.nbytes(), 0u);
}

TEST(Storage, FromBlobWithoutDeleterIsBorrowed) {
  float blob[4] = {1, 2, 3, 4};
  {
    st::Storage s = st::Storage::from_blob(blob, sizeof(blob), st::Device("cpu"));
    EXPECT_EQ(s.data(), blob);  // zero copy
    EXPECT_FALSE(s->resizable());
    EXPECT_NE(error_of([&] { s->resize(32); }).find("not resizable"), std::string::npos);
  }
  EXPECT_EQ(blob[3], 4);
}

int g_deleted = 0;
void count_delete(void* ctx) { g_deleted += *static_cast<int*>(ctx); }

TEST(Storage, FromBlobDeleterRunsOnceAtLastReference) {
  g_deleted = 0;
  int ctx = 1;
  float blob[2] = {0, 0};
  st::Tensor t;
  {
    st::Storage s =
        st::Storage::from_blob(blob, sizeof(blob), st::Device("cpu"), &ctx, &count_delete);
    auto impl = st::make_intrusive<st::TensorImpl>(s, st::ScalarType::Float, st::Device("cpu"));
    const int64_t n = 2;
    impl->set_sizes_contiguous(st::IntArrayRef(&n, 1));
    t = st::Tensor(std::move(impl));
    EXPECT_EQ(s.use_count(), 2u);
  }
  EXPECT_EQ(g_deleted, 0);
  EXPECT_EQ(t.data_ptr<float>(), blob);
  t.reset();
  EXPECT_EQ(g_deleted, 1);
}

TEST(Storage, NullBlobWithBytesIsAnError) {
  EXPECT_EQ(error_of([] { st::Storage::from_blob(nullptr, 8, st::Device("cpu")); }),
            "Storage::from_blob: data is null but nbytes is 8");
}

}  // namespace
