// Row offsets: the first element of each row of a row-major walk, against
// the offsets counted out dim by dim.
#include <gtest/gtest.h>

#include <vector>

#include <st/native/row_offsets.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;
using st::native::row_major_offset;
using st::native::RowOffsets;

// The offset of item `index`, by an odometer over every dim.
int64_t counted_offset(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                       int64_t index) {
  std::vector<int64_t> at(sizes.size(), 0);
  for (int64_t i = 0; i < index; ++i) {
    for (size_t d = sizes.size(); d-- > 0;) {
      if (++at[d] < sizes[d]) break;
      at[d] = 0;
    }
  }
  int64_t off = 0;
  for (size_t d = 0; d < sizes.size(); ++d) off += at[d] * strides[d];
  return off;
}

TEST(NativeRowOffsets, EveryItemOfAWalkOverUpToFourDims) {
  const std::vector<std::vector<int64_t>> shapes = {{5}, {3, 4}, {2, 3, 5}, {2, 1, 3, 2}};
  for (const auto& sizes : shapes) {
    // Strides of every kind: row-major, permuted, broadcast (0), negative.
    std::vector<int64_t> strides(sizes.size());
    for (size_t d = 0; d < sizes.size(); ++d) {
      strides[d] = d % 3 == 0 ? 7 + static_cast<int64_t>(d) : (d % 3 == 1 ? 0 : -3);
    }
    int64_t count = 1;
    for (int64_t s : sizes) count *= s;
    for (int64_t i = 0; i < count; ++i) {
      EXPECT_EQ(row_major_offset(sizes, strides, i), counted_offset(sizes, strides, i))
          << "item " << i << " of a walk over " << sizes.size() << " dims";
    }
  }
  EXPECT_EQ(row_major_offset({}, {}, 0), 0);
}

TEST(NativeRowOffsets, RowsAlongEachDimOfATransposedTensor) {
  // [4, 3, 2] laid out as the transpose of a contiguous [2, 3, 4]: strides
  // (1, 4, 12).
  const Tensor base = make(std::vector<double>(24, 0.0), {2, 3, 4});
  const Tensor t = st::permute(base, {2, 1, 0});
  ASSERT_EQ(t.stride(0), 1);
  for (int64_t dim = 0; dim < 3; ++dim) {
    const RowOffsets rows(t, dim);
    std::vector<int64_t> sizes, strides;
    for (int64_t d = 0; d < 3; ++d) {
      if (d == dim) continue;
      sizes.push_back(t.size(d));
      strides.push_back(t.stride(d));
    }
    for (int64_t r = 0; r < sizes[0] * sizes[1]; ++r) {
      EXPECT_EQ(rows.offset(r), counted_offset(sizes, strides, r))
          << "row " << r << ", dim " << dim;
    }
  }
  // A 0-d tensor has one row, at its data pointer.
  EXPECT_EQ(RowOffsets(make({1.0}, {}), 0).offset(0), 0);
}

}  // namespace
