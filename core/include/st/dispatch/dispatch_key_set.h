// st::DispatchKeySet: a 64-bit set of runtime dispatch keys. The highest key
// in a set decides which kernel runs (Note [Dispatch key order]).
#pragma once

#include <cstdint>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <string>

#include <st/core/export.h>
#include <st/dispatch/dispatch_key.h>

namespace st {

class DispatchKeySet {
 public:
  constexpr DispatchKeySet() = default;
  // The set holding one runtime key; {} for Undefined. Alias keys are not
  // allowed here: use getRuntimeKeySetForAlias.
  constexpr explicit DispatchKeySet(DispatchKey k)
      : repr_(k == DispatchKey::Undefined || !isRuntimeDispatchKey(k)
                  ? 0
                  : uint64_t{1} << (static_cast<uint8_t>(k) - 1)) {}
  constexpr DispatchKeySet(std::initializer_list<DispatchKey> keys) {
    for (DispatchKey k : keys) repr_ |= DispatchKeySet(k).repr_;
  }
  static constexpr DispatchKeySet fromRaw(uint64_t raw) {
    DispatchKeySet s;
    s.repr_ = raw;
    return s;
  }
  // Every runtime key.
  static constexpr DispatchKeySet full() {
    return fromRaw((uint64_t{1} << (kNumRuntimeKeys - 1)) - 1);
  }

  constexpr uint64_t raw() const { return repr_; }
  constexpr bool empty() const { return repr_ == 0; }
  constexpr bool has(DispatchKey k) const {
    return (repr_ & DispatchKeySet(k).repr_) != 0 && k != DispatchKey::Undefined;
  }
  constexpr bool isSupersetOf(DispatchKeySet o) const { return (repr_ & o.repr_) == o.repr_; }
  constexpr DispatchKeySet add(DispatchKey k) const {
    return fromRaw(repr_ | DispatchKeySet(k).repr_);
  }
  constexpr DispatchKeySet remove(DispatchKey k) const {
    return fromRaw(repr_ & ~DispatchKeySet(k).repr_);
  }
  constexpr DispatchKeySet operator|(DispatchKeySet o) const { return fromRaw(repr_ | o.repr_); }
  constexpr DispatchKeySet operator&(DispatchKeySet o) const { return fromRaw(repr_ & o.repr_); }
  constexpr DispatchKeySet operator-(DispatchKeySet o) const { return fromRaw(repr_ & ~o.repr_); }
  constexpr bool operator==(DispatchKeySet o) const { return repr_ == o.repr_; }
  constexpr bool operator!=(DispatchKeySet o) const { return repr_ != o.repr_; }

  // The highest-priority key, or Undefined for the empty set.
  constexpr DispatchKey highestPriorityKey() const {
    return static_cast<DispatchKey>(highestPriorityIndex());
  }
  // The table slot of the highest-priority key (0 = Undefined).
  constexpr int highestPriorityIndex() const {
    return repr_ == 0 ? 0 : 64 - __builtin_clzll(repr_);
  }

  // Iterates keys from lowest to highest priority.
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = DispatchKey;
    using difference_type = std::ptrdiff_t;
    using pointer = const DispatchKey*;
    using reference = DispatchKey;
    constexpr explicit iterator(uint64_t bits) : bits_(bits) {}
    constexpr DispatchKey operator*() const {
      return static_cast<DispatchKey>(__builtin_ctzll(bits_) + 1);
    }
    constexpr iterator& operator++() {
      bits_ &= bits_ - 1;
      return *this;
    }
    constexpr bool operator!=(iterator o) const { return bits_ != o.bits_; }
    constexpr bool operator==(iterator o) const { return bits_ == o.bits_; }

   private:
    uint64_t bits_;
  };
  constexpr iterator begin() const { return iterator(repr_); }
  constexpr iterator end() const { return iterator(0); }

 private:
  uint64_t repr_ = 0;
};

static_assert(kNumRuntimeKeys <= 64, "DispatchKeySet is 64 bits");

// The runtime keys an alias key stands for (see Note [Dispatch key order]):
//   CompositeExplicitAutograd: the backend keys;
//   CompositeImplicitAutograd: the backend keys and the autograd keys;
//   Autograd: the autograd keys.
// For a runtime key, the set holding it.
constexpr DispatchKeySet getRuntimeKeySetForAlias(DispatchKey k) {
  constexpr DispatchKeySet backends{DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::Meta,
                                    DispatchKey::PrivateUse1};
  constexpr DispatchKeySet autograd{DispatchKey::AutogradOther, DispatchKey::AutogradCPU,
                                    DispatchKey::AutogradCUDA, DispatchKey::AutogradMeta,
                                    DispatchKey::AutogradPrivateUse1};
  switch (k) {
    case DispatchKey::CompositeExplicitAutograd:
      return backends;
    case DispatchKey::CompositeImplicitAutograd:
      return backends | autograd;
    case DispatchKey::Autograd:
      return autograd;
    default:
      return DispatchKeySet(k);
  }
}
// Whether a kernel for `alias` may fill the table slot of runtime key `k`.
constexpr bool isIncludedInAlias(DispatchKey k, DispatchKey alias) {
  return isRuntimeDispatchKey(k) && getRuntimeKeySetForAlias(alias).has(k);
}

// The keys a tensor on a backend carries: the backend key, its autograd key
// and ADInplaceOrView (both fall through unless an operator has kernels for
// them). Empty for Undefined.
constexpr DispatchKeySet tensorKeySetForBackend(DispatchKey backend) {
  return backend == DispatchKey::Undefined ? DispatchKeySet()
                                           : DispatchKeySet({backend, DispatchKey::ADInplaceOrView,
                                                             autogradKeyForBackend(backend)});
}

ST_API std::string toString(DispatchKeySet s);
ST_API std::ostream& operator<<(std::ostream& os, DispatchKeySet s);

}  // namespace st
