#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>

#include <st/core/from_blob.h>
#include <st/core/storage.h>
#include <st/generated/functions.h>

#include "error_of.h"

namespace {

using st::ScalarType;

// 64 bytes aligned to 64, so that data + k has exactly the alignment of k.
struct alignas(64) Buffer {
  unsigned char bytes[64 + 32] = {};
};

std::string pointer_text(const void* p) {
  std::ostringstream os;
  os << p;
  return os.str();
}

TEST(FromBlob, AlignmentIsTheElementTypes) {
  EXPECT_EQ(st::detail::dtype_alignment(ScalarType::Byte), 1u);
  EXPECT_EQ(st::detail::dtype_alignment(ScalarType::Half), 2u);
  EXPECT_EQ(st::detail::dtype_alignment(ScalarType::Float), 4u);
  EXPECT_EQ(st::detail::dtype_alignment(ScalarType::Long), 8u);
  EXPECT_EQ(st::detail::dtype_alignment(ScalarType::Double), 8u);
  EXPECT_EQ(st::detail::dtype_alignment(ScalarType::ComplexFloat), 8u);
  EXPECT_EQ(st::detail::dtype_alignment(ScalarType::ComplexDouble), 16u);
  EXPECT_ST_ERROR_HAS(st::detail::dtype_alignment(ScalarType::Undefined),
                      "dtype_alignment: expected a concrete dtype");
}

TEST(FromBlob, MisalignedDataIsRefusedNamingPointerDtypeAndAlignment) {
  Buffer buf;
  void* odd = buf.bytes + 1;
  EXPECT_ST_ERROR_HAS(st::detail::from_blob(odd, {4}, {1}, 0, ScalarType::Float, st::Device("cpu")),
                      "from_blob: data pointer " + pointer_text(odd) +
                          " is not aligned to the 4-byte alignment of Float elements");
  // Aligned for Float, not for Long or ComplexDouble.
  void* by4 = buf.bytes + 4;
  EXPECT_ST_ERROR_HAS(st::detail::from_blob(by4, {2}, {1}, 0, ScalarType::Long, st::Device("cpu")),
                      "8-byte alignment of Long elements");
  void* by8 = buf.bytes + 8;
  EXPECT_ST_ERROR_HAS(
      st::detail::from_blob(by8, {1}, {1}, 0, ScalarType::ComplexDouble, st::Device("cpu")),
      "16-byte alignment of ComplexDouble elements");
  // Refused even when the tensor has no elements: the rule is the pointer's.
  EXPECT_ST_ERROR_HAS(st::detail::from_blob(odd, {0}, {1}, 0, ScalarType::Int, st::Device("cpu")),
                      "is not aligned");
}

TEST(FromBlob, AlignedDataWrapsWithoutCopyAndKernelsWriteIt) {
  Buffer buf;
  for (unsigned char& b : buf.bytes) b = 0xFF;
  // One-byte elements fit any address; wider ones need their alignment.
  st::Tensor bytes =
      st::detail::from_blob(buf.bytes + 3, {5}, {1}, 0, ScalarType::Byte, st::Device("cpu"));
  EXPECT_EQ(bytes.data_ptr(), buf.bytes + 3);
  st::zero_(bytes);
  EXPECT_EQ(buf.bytes[3], 0);
  EXPECT_EQ(buf.bytes[7], 0);
  EXPECT_EQ(buf.bytes[8], 0xFF);

  st::Tensor longs =
      st::detail::from_blob(buf.bytes + 16, {2, 2}, {2, 1}, 1, ScalarType::Long, st::Device("cpu"));
  EXPECT_EQ(longs.data_ptr(), buf.bytes + 24);  // storage offset 1 element
  EXPECT_EQ(longs.storage().nbytes(), 5u * 8);
  EXPECT_FALSE(longs.storage()->resizable());
  st::zero_(longs);
  EXPECT_EQ(buf.bytes[23], 0xFF);
  EXPECT_EQ(buf.bytes[24], 0);
  EXPECT_EQ(buf.bytes[55], 0);
  EXPECT_EQ(buf.bytes[56], 0xFF);
}

TEST(FromBlob, GeometryOverflowIsRefused) {
  Buffer buf;
  EXPECT_ST_ERROR_HAS(st::detail::from_blob(buf.bytes, {int64_t{1} << 61}, {1}, 0, ScalarType::Long,
                                            st::Device("cpu")),
                      "from_blob: byte size of 2305843009213693952 elements of 8 bytes "
                      "overflows int64");
  EXPECT_ST_ERROR_HAS(
      st::detail::from_blob(buf.bytes, {2}, {1}, INT64_MAX, ScalarType::Byte, st::Device("cpu")),
      "from_blob: storage size calculation overflowed");
  EXPECT_ST_ERROR_HAS(st::detail::check_blob("data", buf.bytes, {2}, {-1}, 0, ScalarType::Byte),
                      "data: negative strides are not supported");
}

int g_deleted = 0;
void count_delete(void* context) {
  ++g_deleted;
  EXPECT_EQ(context, &g_deleted);
}

TEST(FromBlob, RefusedBlobIsNotOwnedAndAcceptedOneIsReleasedOnce) {
  Buffer buf;
  g_deleted = 0;
  EXPECT_ST_ERROR_HAS(st::detail::from_blob(buf.bytes + 2, {1}, {1}, 0, ScalarType::Int,
                                            st::Device("cpu"), &g_deleted, &count_delete),
                      "is not aligned");
  EXPECT_EQ(g_deleted, 0);  // the caller still owns it
  {
    st::Tensor t = st::detail::from_blob(buf.bytes + 4, {3}, {1}, 0, ScalarType::Int,
                                         st::Device("cpu"), &g_deleted, &count_delete);
    st::Tensor view = st::select(t, 0, 1);
    t = st::Tensor();
    EXPECT_EQ(g_deleted, 0);
  }
  EXPECT_EQ(g_deleted, 1);
}

}  // namespace
