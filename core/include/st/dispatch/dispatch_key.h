// st::DispatchKey: which kernel of an operator runs. See
// Note [Dispatch key order] for why the enumerators are ordered as they are.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

#include <torch/headeronly/core/DeviceType.h>

#include <st/core/export.h>

namespace st {

// Note [Dispatch key order]
// Runtime keys come first and are numbered 1..kNumRuntimeKeys-1; their value
// is both their bit in a DispatchKeySet (bit = value - 1) and their slot in an
// operator's flat dispatch table. A larger value means a higher priority: the
// dispatcher runs the kernel of the highest key in the (masked) key set, so
// functionality keys (Autograd*, ADInplaceOrView, BackendSelect) sit above the
// backend keys and fall through to them when they have no kernel of their own.
// Alias keys come after the runtime keys; they never appear in a key set at
// run time: a kernel registered for an alias key fills the table slots of the
// runtime keys the alias stands for (see Note [Computing a dispatch table
// entry] in operator_entry.cpp).
enum class DispatchKey : uint8_t {
  Undefined = 0,
  // backend keys
  CPU,
  CUDA,
  Meta,
  PrivateUse1,
  // functionality keys
  BackendSelect,
  ADInplaceOrView,
  AutogradOther,
  AutogradCPU,
  AutogradCUDA,
  AutogradMeta,
  AutogradPrivateUse1,
  EndOfRuntimeKeys,
  // alias keys
  CompositeExplicitAutograd = EndOfRuntimeKeys,
  CompositeImplicitAutograd,
  Autograd,
  NumDispatchKeys,
};

// Number of slots in a flat dispatch table (Undefined + runtime keys).
constexpr int kNumRuntimeKeys = static_cast<int>(DispatchKey::EndOfRuntimeKeys);

constexpr bool isAliasDispatchKey(DispatchKey k) {
  return k >= DispatchKey::EndOfRuntimeKeys && k < DispatchKey::NumDispatchKeys;
}
constexpr bool isRuntimeDispatchKey(DispatchKey k) {
  return k > DispatchKey::Undefined && k < DispatchKey::EndOfRuntimeKeys;
}
constexpr bool isBackendDispatchKey(DispatchKey k) {
  return k >= DispatchKey::CPU && k <= DispatchKey::PrivateUse1;
}
constexpr bool isAutogradDispatchKey(DispatchKey k) {
  return k >= DispatchKey::AutogradOther && k <= DispatchKey::AutogradPrivateUse1;
}

ST_API const char* toString(DispatchKey k);
ST_API std::ostream& operator<<(std::ostream& os, DispatchKey k);
// Parses a key's name ("CPU", "CompositeImplicitAutograd"); nullopt if unknown.
ST_API std::optional<DispatchKey> parseDispatchKey(std::string_view name);

// The backend key for tensors on a device type: CPU, CUDA, Meta, PrivateUse1;
// Undefined for device types this build has no key for.
constexpr DispatchKey backendKeyForDeviceType(torch::headeronly::DeviceType t) {
  using torch::headeronly::DeviceType;
  switch (t) {
    case DeviceType::CPU:
      return DispatchKey::CPU;
    case DeviceType::CUDA:
      return DispatchKey::CUDA;
    case DeviceType::Meta:
      return DispatchKey::Meta;
    case DeviceType::PrivateUse1:
      return DispatchKey::PrivateUse1;
    default:
      return DispatchKey::Undefined;
  }
}

// The autograd key paired with a backend key (AutogradOther for Undefined).
constexpr DispatchKey autogradKeyForBackend(DispatchKey backend) {
  switch (backend) {
    case DispatchKey::CPU:
      return DispatchKey::AutogradCPU;
    case DispatchKey::CUDA:
      return DispatchKey::AutogradCUDA;
    case DispatchKey::Meta:
      return DispatchKey::AutogradMeta;
    case DispatchKey::PrivateUse1:
      return DispatchKey::AutogradPrivateUse1;
    default:
      return DispatchKey::AutogradOther;
  }
}

}  // namespace st
