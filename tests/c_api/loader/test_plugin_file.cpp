// PluginFile: bounded reads (served from the file's first bytes once read,
// or by pread past them).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <st/core/error.h>

#include "loader/plugin_file.h"

namespace {

using st::loader::PluginFile;

std::string temp_name(const std::string& stem) {
  return ::testing::TempDir() + "plugin_file_" + stem + "_" + std::to_string(::getpid());
}

// A file whose byte i is (i * 7 + i / 251) mod 256: no two nearby ranges
// read alike, so a read served from the wrong offset shows.
std::vector<uint8_t> write_pattern(const std::string& path, size_t n) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + i / 251);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(n));
  return bytes;
}

TEST(PluginFile, ReadsInsideAcrossAndPastTheHeadGiveTheFileBytes) {
  const std::string path = temp_name("pattern");
  const size_t n = static_cast<size_t>(PluginFile::kHeadBytes) * 2 + 123;
  const std::vector<uint8_t> bytes = write_pattern(path, n);
  const PluginFile file = PluginFile::open(path);
  ASSERT_EQ(file.size(), n);
  const uint64_t head = PluginFile::kHeadBytes;
  const std::pair<uint64_t, uint64_t> ranges[] = {
      {0, 64}, {head - 10, 10}, {head - 10, 20}, {head, 100}, {n - 7, 7}, {5, 0}, {0, n}};
  for (const auto& [offset, count] : ranges) {
    std::vector<uint8_t> got(count + 1, 0xAB);
    file.read_at(offset, count, got.data());
    EXPECT_TRUE(std::equal(got.begin(), got.begin() + static_cast<long>(count),
                           bytes.begin() + static_cast<long>(offset)))
        << "bytes " << offset << "..+" << count;
    EXPECT_EQ(got[count], 0xAB) << "wrote past " << count << " bytes";
  }
  std::remove(path.c_str());
}

TEST(PluginFile, ViewsAreTheHeadsBytesInPlaceAndNullPastIt) {
  const std::string path = temp_name("view");
  const size_t n = static_cast<size_t>(PluginFile::kHeadBytes) + 500;
  const std::vector<uint8_t> bytes = write_pattern(path, n);
  const PluginFile file = PluginFile::open(path);
  const uint64_t head = PluginFile::kHeadBytes;
  const uint8_t* first = file.view(0, 64);
  ASSERT_NE(first, nullptr);
  EXPECT_TRUE(std::equal(first, first + 64, bytes.begin()));
  // Views of the head share one buffer: no copy per view.
  const uint8_t* last = file.view(head - 8, 8);
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last, first + (head - 8));
  EXPECT_TRUE(std::equal(last, last + 8, bytes.begin() + static_cast<long>(head - 8)));
  // Past the head (but inside the file): not in memory, read_at reads it.
  EXPECT_EQ(file.view(head - 8, 9), nullptr);
  EXPECT_EQ(file.view(head + 10, 10), nullptr);
  // Outside the file: refused, naming it.
  try {
    (void)file.view(n - 4, 8);
    ADD_FAILURE() << "viewed past the end";
  } catch (const st::Error& e) {
    EXPECT_NE(std::string(e.what()).find("plugin file '" + path + "' is truncated or corrupt"),
              std::string::npos)
        << e.what();
  }
  std::remove(path.c_str());
}

TEST(PluginFile, OpenFailuresSayWhatTheCallerWasDoing) {
  try {
    (void)PluginFile::open("/nonexistent-dir/x.so", "cannot load plugin");
    ADD_FAILURE() << "opened a missing file";
  } catch (const st::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot load plugin '/nonexistent-dir/x.so': No such file or directory");
  }
}

TEST(PluginFile, ReadsBeyondTheFileNameIt) {
  const std::string path = temp_name("small");
  write_pattern(path, 100);
  const PluginFile file = PluginFile::open(path);
  uint8_t buf[16];
  try {
    file.read_at(90, 16, buf);
    ADD_FAILURE() << "read past the end";
  } catch (const st::Error& e) {
    EXPECT_NE(std::string(e.what()).find("plugin file '" + path + "' is truncated or corrupt"),
              std::string::npos)
        << e.what();
  }
  std::remove(path.c_str());
}

}  // namespace
