#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/MemoryFormat.h>

#include <gtest/gtest.h>

#include <sstream>

namespace {

using torch::headeronly::Layout;
using torch::headeronly::MemoryFormat;

TEST(Layout, OrdinalsMatchC10) {
  EXPECT_EQ(static_cast<int>(Layout::Strided), 0);
  EXPECT_EQ(static_cast<int>(Layout::Sparse), 1);
  EXPECT_EQ(static_cast<int>(Layout::SparseCsr), 2);
  EXPECT_EQ(static_cast<int>(Layout::Mkldnn), 3);
  EXPECT_EQ(static_cast<int>(Layout::SparseCsc), 4);
  EXPECT_EQ(static_cast<int>(Layout::SparseBsr), 5);
  EXPECT_EQ(static_cast<int>(Layout::SparseBsc), 6);
  EXPECT_EQ(static_cast<int>(Layout::Jagged), 7);
  EXPECT_EQ(static_cast<int>(Layout::NumOptions), 8);
  EXPECT_STREQ(torch::headeronly::toString(Layout::SparseCsr), "SparseCsr");
  std::ostringstream os;
  os << Layout::Strided;
  EXPECT_EQ(os.str(), "Strided");
}

TEST(MemoryFormat, OrdinalsMatchC10) {
  EXPECT_EQ(static_cast<int>(MemoryFormat::Contiguous), 0);
  EXPECT_EQ(static_cast<int>(MemoryFormat::Preserve), 1);
  EXPECT_EQ(static_cast<int>(MemoryFormat::ChannelsLast), 2);
  EXPECT_EQ(static_cast<int>(MemoryFormat::ChannelsLast3d), 3);
  EXPECT_EQ(static_cast<int>(MemoryFormat::NumOptions), 4);
  EXPECT_STREQ(torch::headeronly::toString(MemoryFormat::ChannelsLast3d), "ChannelsLast3d");
  EXPECT_STREQ(torch::headeronly::toString(static_cast<MemoryFormat>(9)), "UNKNOWN_MEMORY_FORMAT");
}

TEST(MemoryFormat, ContiguousDefault) {
  EXPECT_EQ(torch::headeronly::get_contiguous_memory_format(), MemoryFormat::Contiguous);
  EXPECT_EQ(c10::get_contiguous_memory_format(), MemoryFormat::Contiguous);
}

}  // namespace
