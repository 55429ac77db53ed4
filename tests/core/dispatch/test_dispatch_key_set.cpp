// Tests for st::DispatchKey and st::DispatchKeySet.
#include <gtest/gtest.h>

#include <vector>

#include <st/dispatch/dispatch_key_set.h>

namespace st {
namespace {

TEST(DispatchKeySetTest, HighestPriorityFollowsKeyOrder) {
  DispatchKeySet s{DispatchKey::CPU, DispatchKey::AutogradCPU, DispatchKey::ADInplaceOrView};
  EXPECT_EQ(s.highestPriorityKey(), DispatchKey::AutogradCPU);
  EXPECT_EQ(s.remove(DispatchKey::AutogradCPU).highestPriorityKey(), DispatchKey::ADInplaceOrView);
  EXPECT_EQ(DispatchKeySet().highestPriorityKey(), DispatchKey::Undefined);
  EXPECT_EQ(DispatchKeySet(DispatchKey::BackendSelect).highestPriorityIndex(),
            static_cast<int>(DispatchKey::BackendSelect));
}

TEST(DispatchKeySetTest, SetOperations) {
  DispatchKeySet a{DispatchKey::CPU, DispatchKey::CUDA};
  DispatchKeySet b{DispatchKey::CUDA, DispatchKey::Meta};
  EXPECT_EQ(a | b, (DispatchKeySet{DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::Meta}));
  EXPECT_EQ(a & b, DispatchKeySet(DispatchKey::CUDA));
  EXPECT_EQ(a - b, DispatchKeySet(DispatchKey::CPU));
  EXPECT_TRUE(a.has(DispatchKey::CPU));
  EXPECT_FALSE(a.has(DispatchKey::Meta));
  EXPECT_FALSE(a.has(DispatchKey::Undefined));
  EXPECT_TRUE((a | b).isSupersetOf(a));
  EXPECT_TRUE(DispatchKeySet(DispatchKey::Undefined).empty());
  EXPECT_TRUE(DispatchKeySet(DispatchKey::CompositeImplicitAutograd).empty());
  std::vector<DispatchKey> keys(a.begin(), a.end());
  EXPECT_EQ(keys, (std::vector<DispatchKey>{DispatchKey::CPU, DispatchKey::CUDA}));
  EXPECT_EQ(toString(a), "DispatchKeySet(CPU, CUDA)");
  EXPECT_EQ(DispatchKeySet::full().raw(), (uint64_t{1} << (kNumRuntimeKeys - 1)) - 1);
}

TEST(DispatchKeySetTest, AliasKeys) {
  EXPECT_TRUE(isAliasDispatchKey(DispatchKey::CompositeExplicitAutograd));
  EXPECT_TRUE(isAliasDispatchKey(DispatchKey::Autograd));
  EXPECT_FALSE(isAliasDispatchKey(DispatchKey::CPU));
  EXPECT_TRUE(isIncludedInAlias(DispatchKey::CPU, DispatchKey::CompositeExplicitAutograd));
  EXPECT_FALSE(isIncludedInAlias(DispatchKey::AutogradCPU, DispatchKey::CompositeExplicitAutograd));
  EXPECT_TRUE(isIncludedInAlias(DispatchKey::AutogradCPU, DispatchKey::CompositeImplicitAutograd));
  EXPECT_TRUE(isIncludedInAlias(DispatchKey::PrivateUse1, DispatchKey::CompositeImplicitAutograd));
  EXPECT_FALSE(
      isIncludedInAlias(DispatchKey::BackendSelect, DispatchKey::CompositeImplicitAutograd));
  EXPECT_TRUE(isIncludedInAlias(DispatchKey::AutogradOther, DispatchKey::Autograd));
  EXPECT_FALSE(isIncludedInAlias(DispatchKey::CPU, DispatchKey::Autograd));
}

TEST(DispatchKeyTest, NamesRoundTrip) {
  for (int i = 0; i < static_cast<int>(DispatchKey::NumDispatchKeys); ++i) {
    auto k = static_cast<DispatchKey>(i);
    EXPECT_EQ(parseDispatchKey(toString(k)), k);
  }
  EXPECT_FALSE(parseDispatchKey("XLA").has_value());
}

TEST(DispatchKeyTest, DeviceTypeMapping) {
  using torch::headeronly::DeviceType;
  EXPECT_EQ(backendKeyForDeviceType(DeviceType::CPU), DispatchKey::CPU);
  EXPECT_EQ(backendKeyForDeviceType(DeviceType::CUDA), DispatchKey::CUDA);
  EXPECT_EQ(backendKeyForDeviceType(DeviceType::Meta), DispatchKey::Meta);
  EXPECT_EQ(backendKeyForDeviceType(DeviceType::PrivateUse1), DispatchKey::PrivateUse1);
  EXPECT_EQ(backendKeyForDeviceType(DeviceType::XLA), DispatchKey::Undefined);
  EXPECT_EQ(
      tensorKeySetForBackend(DispatchKey::CUDA),
      (DispatchKeySet{DispatchKey::CUDA, DispatchKey::AutogradCUDA, DispatchKey::ADInplaceOrView}));
}

}  // namespace
}  // namespace st
