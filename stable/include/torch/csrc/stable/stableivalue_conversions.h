// C++ values <-> StableIValue, the 64-bit slots of the stable ABI's
// operator stacks. The payload carries no type: the schema decides how the
// core reads it, the C++ type asked for decides how the extension does.
//
//   from(value) -> StableIValue      to<T>(StableIValue) -> T
//
// Encodings and ownership (the core's side is c_api/src/stable_ivalue_codec):
//   bool, int64_t, double, any trivially copyable type of <= 8 bytes:
//       the raw bytes in the low-order bytes, the rest zero.
//   ScalarType, Layout, MemoryFormat, DeviceType, Tag (2.12): the shim's
//       int32 code.
//   Device: index (as uint32) in the low 32 bits, device-type code above.
//   Tensor: an AtenTensorHandle. from() makes a NEW owning handle (the
//       receiver owns it); to() STEALS the handle it is given.
//   std::optional<T>: 0 when empty, else a pointer to a heap StableIValue
//       holding T's payload (from 2.13 the core's, torch_new_stable_ivalue;
//       before, operator new); to() frees it.
//   std::vector<T>, HeaderOnlyArrayRef<T> (2.10): a StableListHandle of the
//       elements' payloads; to() deletes the list (elements move out).
//   std::string, std::string_view (2.10): a StringHandle; to() copies the
//       bytes (UTF-8 or anything else, NULs included) and deletes it.
//   Scalar (stabletorch addition, with STABLETORCH_EXTENSIONS): a
//       StableScalarHandle; to() deletes it.
//
// On failure to() still releases what it was given (nothing leaks); a
// failing from() leaves nothing allocated.
//
// torch::stable::detail::from/to are the supported spellings; the global
// from/to are kept, deprecated, for extensions written against PyTorch
// 2.9's headers.
#pragma once

#include <stabletorch/c/runtime.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/detail/version_gate.h>
#include <torch/csrc/stable/device_struct.h>
#include <torch/csrc/stable/enum_codes.h>
#include <torch/csrc/stable/generator_struct.h>
#include <torch/csrc/stable/macros.h>
#include <torch/csrc/stable/scalar.h>
#include <torch/csrc/stable/tensor_struct.h>
#include <torch/headeronly/core/DeviceType.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/core/enum_tag.h>
#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/Exception.h>
#include <torch/headeronly/util/HeaderOnlyArrayRef.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

HIDDEN_NAMESPACE_BEGIN(torch, stable, detail)

// The primary templates are the catch-all for small trivially copyable
// values (bool, integers, double, float, ...). `is_internal` and the build
// version are accepted for source compatibility with PyTorch's FromImpl /
// ToImpl; no encoding here depends on them yet.
template <typename T, typename Enable = void>
struct FromImpl {
  static StableIValue call(const T& val, uint64_t /*extension_build_version*/,
                           bool /*is_internal*/) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "torch::stable::detail::from: this type has no StableIValue "
                  "encoding (only trivially copyable values of <= 8 bytes, "
                  "Tensor, Device, Scalar, the dtype/layout/memory-format "
                  "enums, optionals, vectors and strings do)");
    static_assert(sizeof(T) <= sizeof(StableIValue),
                  "torch::stable::detail::from: a value of more than 8 bytes "
                  "does not fit in a StableIValue");
    StableIValue result = 0;
    std::memcpy(&result, &val, sizeof(T));  // low-order bytes (little endian)
    return result;
  }
};

template <typename T, typename Enable = void>
struct ToImpl {
  static T call(StableIValue val, uint64_t /*extension_build_version*/, bool /*is_internal*/) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(StableIValue),
                  "torch::stable::detail::to: this type has no StableIValue "
                  "encoding (see stableivalue_conversions.h for the list)");
    static_assert(std::is_default_constructible_v<T>,
                  "torch::stable::detail::to: the type must be default constructible");
    T result{};
    std::memcpy(&result, &val, sizeof(T));
    return result;
  }
};

// The core owns the version this extension was built against; conversions
// on the extension's side pass the headers' level.
inline constexpr uint64_t kExtensionBuildVersion = TORCH_ABI_VERSION;

template <typename T>
StableIValue from(const T& val) {
  return FromImpl<std::decay_t<T>>::call(val, kExtensionBuildVersion, false);
}

template <typename T>
T to(StableIValue val) {
  return ToImpl<T>::call(val, kExtensionBuildVersion, false);
}

// A std::optional<T> built from std::nullopt.
inline StableIValue from(std::nullopt_t) { return 0; }

// ---- enums ---------------------------------------------------------------

template <>
struct FromImpl<torch::headeronly::ScalarType> {
  static StableIValue call(torch::headeronly::ScalarType v, uint64_t, bool) {
    return FromImpl<int32_t>::call(to_shim_dtype(v), 0, false);
  }
};
template <>
struct ToImpl<torch::headeronly::ScalarType> {
  static torch::headeronly::ScalarType call(StableIValue v, uint64_t, bool) {
    return from_shim_dtype(ToImpl<int32_t>::call(v, 0, false));
  }
};

template <>
struct FromImpl<torch::headeronly::DeviceType> {
  static StableIValue call(torch::headeronly::DeviceType v, uint64_t, bool) {
    return FromImpl<int32_t>::call(to_shim_device_type(v), 0, false);
  }
};
template <>
struct ToImpl<torch::headeronly::DeviceType> {
  static torch::headeronly::DeviceType call(StableIValue v, uint64_t, bool) {
    return from_shim_device_type(ToImpl<int32_t>::call(v, 0, false));
  }
};

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
template <>
struct FromImpl<torch::headeronly::Layout> {
  static StableIValue call(torch::headeronly::Layout v, uint64_t, bool) {
    return FromImpl<int32_t>::call(to_shim_layout(v), 0, false);
  }
};
template <>
struct ToImpl<torch::headeronly::Layout> {
  static torch::headeronly::Layout call(StableIValue v, uint64_t, bool) {
    return from_shim_layout(ToImpl<int32_t>::call(v, 0, false));
  }
};

template <>
struct FromImpl<torch::headeronly::MemoryFormat> {
  static StableIValue call(torch::headeronly::MemoryFormat v, uint64_t, bool) {
    return FromImpl<int32_t>::call(to_shim_memory_format(v), 0, false);
  }
};
template <>
struct ToImpl<torch::headeronly::MemoryFormat> {
  static torch::headeronly::MemoryFormat call(StableIValue v, uint64_t, bool) {
    return from_shim_memory_format(ToImpl<int32_t>::call(v, 0, false));
  }
};

// ---- Device ----------------------------------------------------------------

template <>
struct FromImpl<Device> {
  static StableIValue call(const Device& d, uint64_t, bool) {
    const uint64_t type = static_cast<uint32_t>(to_shim_device_type(d.type()));
    const uint64_t index = static_cast<uint32_t>(d.index());
    return (type << 32) | index;
  }
};
template <>
struct ToImpl<Device> {
  static Device call(StableIValue v, uint64_t, bool) {
    const auto type = static_cast<int32_t>(static_cast<uint32_t>(v >> 32));
    const auto index = static_cast<int32_t>(static_cast<uint32_t>(v & 0xFFFFFFFFu));
    return Device(from_shim_device_type(type), index);
  }
};
#else
template <typename E>
struct FromImpl<E, std::enable_if_t<std::is_same_v<E, torch::headeronly::Layout> ||
                                    std::is_same_v<E, torch::headeronly::MemoryFormat> ||
                                    std::is_same_v<E, Device>>> {
  static StableIValue call(const E&, uint64_t, bool) {
    static_assert(dependent_false_v<E>,
                  STABLE_VERSION_ERROR_("the StableIValue conversion of Layout, "
                                        "MemoryFormat and Device",
                                        "TORCH_VERSION_2_10_0", "2.10"));
    return 0;
  }
};
template <typename E>
struct ToImpl<E, std::enable_if_t<std::is_same_v<E, torch::headeronly::Layout> ||
                                  std::is_same_v<E, torch::headeronly::MemoryFormat> ||
                                  std::is_same_v<E, Device>>> {
  static E call(StableIValue, uint64_t, bool) {
    static_assert(dependent_false_v<E>,
                  STABLE_VERSION_ERROR_("the StableIValue conversion of Layout, "
                                        "MemoryFormat and Device",
                                        "TORCH_VERSION_2_10_0", "2.10"));
  }
};
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0
// The code of the running core's torch_tag_* getter, not the ordinal.
template <>
struct FromImpl<torch::headeronly::Tag> {
  static StableIValue call(torch::headeronly::Tag v, uint64_t, bool) {
    return FromImpl<int32_t>::call(to_shim_tag(v), 0, false);
  }
};
template <>
struct ToImpl<torch::headeronly::Tag> {
  static torch::headeronly::Tag call(StableIValue v, uint64_t, bool) {
    return from_shim_tag(ToImpl<int32_t>::call(v, 0, false));
  }
};
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0

// ---- Tensor ----------------------------------------------------------------

template <>
struct FromImpl<Tensor> {
  // A new owning handle to the same tensor: the receiver owns it, the
  // caller's Tensor is untouched.
  static StableIValue call(const Tensor& t, uint64_t, bool) {
    AtenTensorHandle handle = nullptr;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_new_tensor_handle(t.get(), &handle));
    return FromImpl<AtenTensorHandle>::call(handle, 0, false);
  }
};
template <>
struct ToImpl<Tensor> {
  // Steals the handle.
  static Tensor call(StableIValue v, uint64_t, bool) {
    return Tensor(ToImpl<AtenTensorHandle>::call(v, 0, false));
  }
};

// ---- Generator (2.13) ------------------------------------------------------

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
template <>
struct FromImpl<Generator> {
  // A new owning handle to the same generator: the receiver owns it, the
  // caller's Generator is untouched.
  static StableIValue call(const Generator& g, uint64_t, bool) {
    AtenGeneratorHandle handle = nullptr;
    STABLE_TORCH_ERROR_CODE_CHECK(torch_new_generator_handle(g.get(), &handle));
    return FromImpl<AtenGeneratorHandle>::call(handle, 0, false);
  }
};
template <>
struct ToImpl<Generator> {
  // Steals the handle.
  static Generator call(StableIValue v, uint64_t, bool) {
    return Generator(ToImpl<AtenGeneratorHandle>::call(v, 0, false));
  }
};
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0

// ---- Scalar (stabletorch addition) -----------------------------------------
// Only with STABLETORCH_EXTENSIONS (detail/version_gate.h): a Scalar
// crosses the C ABI as a stabletorch handle, which PyTorch's runtime has no
// functions for.

#ifdef STABLETORCH_EXTENSIONS

template <>
struct FromImpl<Scalar> {
  static StableIValue call(const Scalar& s, uint64_t, bool) {
    StableScalarHandle handle = nullptr;
    switch (s.kind()) {
      case Scalar::Kind::Bool:
        STABLE_TORCH_ERROR_CODE_CHECK(stabletorch_scalar_from_bool(s.toBool(), &handle));
        break;
      case Scalar::Kind::Int:
        STABLE_TORCH_ERROR_CODE_CHECK(stabletorch_scalar_from_int(s.toLong(), &handle));
        break;
      case Scalar::Kind::Double:
        STABLE_TORCH_ERROR_CODE_CHECK(stabletorch_scalar_from_double(s.toDouble(), &handle));
        break;
      case Scalar::Kind::Complex: {
        const auto c = s.toComplexDouble();
        STABLE_TORCH_ERROR_CODE_CHECK(stabletorch_scalar_from_complex(c.real(), c.imag(), &handle));
        break;
      }
    }
    return FromImpl<StableScalarHandle>::call(handle, 0, false);
  }
};
template <>
struct ToImpl<Scalar> {
  static Scalar call(StableIValue v, uint64_t, bool) {
    const auto handle = ToImpl<StableScalarHandle>::call(v, 0, false);
    // Owns the handle from here on, whatever happens.
    const std::unique_ptr<StableScalarOpaque, void (*)(StableScalarHandle)> owner(
        handle, [](StableScalarHandle h) { (void)stabletorch_delete_scalar(h); });
    int32_t kind = 0;
    STABLE_TORCH_ERROR_CODE_CHECK(stabletorch_scalar_kind(handle, &kind));
    switch (kind) {
      case STABLETORCH_SCALAR_BOOL: {
        bool b = false;
        STABLE_TORCH_ERROR_CODE_CHECK(stabletorch_scalar_to_bool(handle, &b));
        return Scalar(b);
      }
      case STABLETORCH_SCALAR_INT: {
        int64_t i = 0;
        STABLE_TORCH_ERROR_CODE_CHECK(stabletorch_scalar_to_int(handle, &i));
        return Scalar(i);
      }
      case STABLETORCH_SCALAR_DOUBLE: {
        double d = 0;
        STABLE_TORCH_ERROR_CODE_CHECK(stabletorch_scalar_to_double(handle, &d));
        return Scalar(d);
      }
      default: {
        double re = 0;
        double im = 0;
        STABLE_TORCH_ERROR_CODE_CHECK(stabletorch_scalar_to_complex(handle, &re, &im));
        return Scalar(torch::headeronly::complex<double>(re, im));
      }
    }
  }
};
#else
template <>
struct FromImpl<Scalar> {
  template <typename S = Scalar>
  static StableIValue call(const S&, uint64_t, bool) {
    static_assert(dependent_false_v<S>,
                  STABLETORCH_EXTENSION_ERROR_("a torch::stable::Scalar argument or return"));
    return 0;
  }
};
template <>
struct ToImpl<Scalar> {
  template <typename S = Scalar>
  static S call(StableIValue, uint64_t, bool) {
    static_assert(dependent_false_v<S>,
                  STABLETORCH_EXTENSION_ERROR_("a torch::stable::Scalar argument or return"));
    return S();
  }
};
#endif

// ---- std::optional -----------------------------------------------------------

template <typename T>
struct FromImpl<std::optional<T>> {
  static StableIValue call(const std::optional<T>& opt, uint64_t, bool) {
    if (!opt.has_value()) return 0;
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
    // The core's slot (torch_new_stable_ivalue), as PyTorch's 2.13 headers
    // use; made first, and freed again if the conversion throws.
    StableIValue* slot = nullptr;
    STABLE_TORCH_ERROR_CODE_CHECK(torch_new_stable_ivalue(&slot));
    try {
      *slot = from(*opt);
    } catch (...) {
      (void)torch_delete_stable_ivalue(slot);
      throw;
    }
    return FromImpl<StableIValue*>::call(slot, 0, false);
#else
    // Convert first: if that throws, no slot exists to leak.
    const StableIValue inner = from(*opt);
    return FromImpl<StableIValue*>::call(new StableIValue(inner), 0, false);
#endif
  }
};
template <typename T>
struct ToImpl<std::optional<T>> {
  static std::optional<T> call(StableIValue v, uint64_t, bool) {
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
    // The slot is ours to free, through the core (it frees slots of either
    // origin), also when the conversion throws.
    struct SlotDeleter {
      void operator()(StableIValue* p) const noexcept { (void)torch_delete_stable_ivalue(p); }
    };
    std::unique_ptr<StableIValue, SlotDeleter> slot(ToImpl<StableIValue*>::call(v, 0, false));
#else
    // The slot is ours to free (the core allocates it with operator new).
    std::unique_ptr<StableIValue> slot(ToImpl<StableIValue*>::call(v, 0, false));
#endif
    if (!slot) return std::nullopt;
    return std::optional<T>(to<T>(*slot));
  }
};

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0

// ---- lists -----------------------------------------------------------------

struct ListDeleter {
  void operator()(StableListOpaque* list) const noexcept { (void)torch_delete_list(list); }
};
using OwnedList = std::unique_ptr<StableListOpaque, ListDeleter>;

template <typename Range>
StableIValue list_from(const Range& items) {
  StableListHandle raw = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(torch_new_list_reserve_size(items.size(), &raw));
  OwnedList list(raw);
  for (const auto& item : items) {
    STABLE_TORCH_ERROR_CODE_CHECK(torch_list_push_back(list.get(), from(item)));
  }
  return FromImpl<StableListHandle>::call(list.release(), 0, false);
}

template <typename T>
struct FromImpl<std::vector<T>> {
  static StableIValue call(const std::vector<T>& items, uint64_t, bool) { return list_from(items); }
};
template <typename T>
struct FromImpl<torch::headeronly::HeaderOnlyArrayRef<T>> {
  static StableIValue call(torch::headeronly::HeaderOnlyArrayRef<T> items, uint64_t, bool) {
    return list_from(items);
  }
};
template <typename T>
struct ToImpl<std::vector<T>> {
  static std::vector<T> call(StableIValue v, uint64_t, bool) {
    OwnedList list(ToImpl<StableListHandle>::call(v, 0, false));
    size_t size = 0;
    STABLE_TORCH_ERROR_CODE_CHECK(torch_list_size(list.get(), &size));
    std::vector<T> result;
    result.reserve(size);
    for (size_t i = 0; i < size; ++i) {
      StableIValue item = 0;
      STABLE_TORCH_ERROR_CODE_CHECK(torch_list_get_item(list.get(), i, &item));
      result.push_back(to<T>(item));
    }
    return result;
  }
};

// ---- strings ---------------------------------------------------------------

inline StableIValue string_from(const char* data, size_t length) {
  StringHandle handle = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(torch_new_string_handle(data, length, &handle));
  return FromImpl<StringHandle>::call(handle, 0, false);
}

template <>
struct FromImpl<std::string> {
  static StableIValue call(const std::string& s, uint64_t, bool) {
    return string_from(s.data(), s.size());
  }
};
template <>
struct FromImpl<std::string_view> {
  static StableIValue call(std::string_view s, uint64_t, bool) {
    return string_from(s.data(), s.size());
  }
};
template <>
struct ToImpl<std::string> {
  static std::string call(StableIValue v, uint64_t, bool) {
    struct Deleter {
      void operator()(StringOpaque* s) const noexcept { (void)torch_delete_string(s); }
    };
    const std::unique_ptr<StringOpaque, Deleter> handle(ToImpl<StringHandle>::call(v, 0, false));
    size_t length = 0;
    const char* data = nullptr;
    STABLE_TORCH_ERROR_CODE_CHECK(torch_string_length(handle.get(), &length));
    STABLE_TORCH_ERROR_CODE_CHECK(torch_string_c_str(handle.get(), &data));
    return std::string(data, length);
  }
};

#else  // TORCH_FEATURE_VERSION < 2.10: lists and strings need 2.10's shims

template <typename T>
struct FromImpl<
    T, std::enable_if_t<std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view>>> {
  static StableIValue call(const T&, uint64_t, bool) {
    static_assert(dependent_false_v<T>,
                  STABLE_VERSION_ERROR_("the StableIValue conversion of strings",
                                        "TORCH_VERSION_2_10_0", "2.10"));
    return 0;
  }
};
template <>
struct ToImpl<std::string> {
  template <typename U = void>
  static std::string call(StableIValue, uint64_t, bool) {
    static_assert(dependent_false_v<U>,
                  STABLE_VERSION_ERROR_("the StableIValue conversion of strings",
                                        "TORCH_VERSION_2_10_0", "2.10"));
    return {};
  }
};
template <typename T>
struct FromImpl<std::vector<T>> {
  static StableIValue call(const std::vector<T>&, uint64_t, bool) {
    static_assert(dependent_false_v<T>,
                  STABLE_VERSION_ERROR_("the StableIValue conversion of lists",
                                        "TORCH_VERSION_2_10_0", "2.10"));
    return 0;
  }
};
template <typename T>
struct FromImpl<torch::headeronly::HeaderOnlyArrayRef<T>> {
  static StableIValue call(torch::headeronly::HeaderOnlyArrayRef<T>, uint64_t, bool) {
    static_assert(dependent_false_v<T>,
                  STABLE_VERSION_ERROR_("the StableIValue conversion of lists",
                                        "TORCH_VERSION_2_10_0", "2.10"));
    return 0;
  }
};
template <typename T>
struct ToImpl<std::vector<T>> {
  static std::vector<T> call(StableIValue, uint64_t, bool) {
    static_assert(dependent_false_v<T>,
                  STABLE_VERSION_ERROR_("the StableIValue conversion of lists",
                                        "TORCH_VERSION_2_10_0", "2.10"));
    return {};
  }
};

#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0

HIDDEN_NAMESPACE_END(torch, stable, detail)

// Deprecated since 2.10 (kept for extensions written against 2.9): the
// global spellings of torch::stable::detail::from / to.
template <typename T>
[[deprecated("use torch::stable::detail::from")]] C10_HIDDEN_ATTR_ inline StableIValue from(
    const T& val) {
  return torch::stable::detail::from(val);
}

[[deprecated("use torch::stable::detail::from")]] C10_HIDDEN_ATTR_ inline StableIValue from(
    std::nullopt_t) {
  return 0;
}

template <typename T>
[[deprecated("use torch::stable::detail::to")]] C10_HIDDEN_ATTR_ inline T to(StableIValue val) {
  return torch::stable::detail::to<T>(val);
}
