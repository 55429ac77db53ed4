#include <stabletorch/version.h>
#include <torch/headeronly/version.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

TEST(Version, AbiVersionPacking) {
  static_assert(TORCH_ABI_VERSION == 0x020F000000000000ULL,
                "the SDK claims stable-ABI level 2.15.0");
  static_assert(TORCH_VERSION_2_10_0 == (2ULL << 56 | 10ULL << 48));
  static_assert(TORCH_VERSION_2_9_0 < TORCH_VERSION_2_10_0);
  static_assert(TORCH_VERSION_2_10_0 < TORCH_VERSION_2_11_0);
  static_assert(TORCH_VERSION_2_15_0 == (2ULL << 56 | 15ULL << 48));
  EXPECT_EQ((TORCH_ABI_VERSION >> 56) & 0xFF, 2u);
  EXPECT_EQ((TORCH_ABI_VERSION >> 48) & 0xFF, 15u);
  EXPECT_EQ((TORCH_ABI_VERSION >> 40) & 0xFF, 0u);
  EXPECT_EQ(std::string(TORCH_VERSION), "2.15.0");
}

TEST(Version, ProjectVersionComesFromCMake) {
  EXPECT_EQ(std::string(STABLETORCH_VERSION_STRING),
            std::to_string(STABLETORCH_VERSION_MAJOR) + "." +
                std::to_string(STABLETORCH_VERSION_MINOR) + "." +
                std::to_string(STABLETORCH_VERSION_PATCH));
  EXPECT_EQ(STABLETORCH_VERSION_NUMBER, STABLETORCH_VERSION_MAJOR * 10000 +
                                            STABLETORCH_VERSION_MINOR * 100 +
                                            STABLETORCH_VERSION_PATCH);
}

}  // namespace
