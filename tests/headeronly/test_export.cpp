#include <torch/headeronly/macros/Export.h>

#include <gtest/gtest.h>

#include <string>

namespace {

#define EXPORT_TEST_STR_(...) #__VA_ARGS__
#define EXPORT_TEST_STR(...) EXPORT_TEST_STR_(__VA_ARGS__)

TEST(Export, VisibilityAttributes) {
#if defined(__GNUC__) && !defined(_WIN32)
  EXPECT_NE(std::string(EXPORT_TEST_STR(C10_EXPORT)).find("default"), std::string::npos);
  EXPECT_NE(std::string(EXPORT_TEST_STR(C10_HIDDEN)).find("hidden"), std::string::npos);
  // Code built against the SDK is not one of PyTorch's libraries: its API
  // macros import, which on ELF is default visibility.
  EXPECT_EQ(std::string(EXPORT_TEST_STR(TORCH_API)), EXPORT_TEST_STR(C10_EXPORT));
  EXPECT_EQ(std::string(EXPORT_TEST_STR(C10_API)), EXPORT_TEST_STR(C10_EXPORT));
#endif
  EXPECT_EQ(std::string(EXPORT_TEST_STR(C10_API_ENUM)), "");
}

}  // namespace

// A declaration using the macros compiles.
TORCH_API int export_test_declared_function();
