// Version gating of the stable C++ SDK.
//
// TORCH_TARGET_VERSION (optional, e.g. -DTORCH_TARGET_VERSION=0x0209000000000000
// for 2.9) picks the stable-ABI level an extension is built for;
// TORCH_FEATURE_VERSION is that target, or the headers' own TORCH_ABI_VERSION
// when none is given (<torch/csrc/stable/version.h>, shared by the C and C++
// layers so both gate on one value).
//
// Every C++ API newer than the target is replaced by a stub whose use is a
// compile error naming the level it needs, e.g.
//   "torch::stable::reshape requires TORCH_FEATURE_VERSION >=
//    TORCH_VERSION_2_10_0 (stable ABI 2.10); this extension targets an
//    older level (TORCH_TARGET_VERSION)".
// So an extension built for 2.9 compiles only against what a 2.9 core has,
// and imports nothing newer.
#pragma once

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/version.h>

#include <torch/csrc/stable/version.h>

#include <type_traits>

HIDDEN_NAMESPACE_BEGIN(torch, stable, detail)

// false, but only once a template is instantiated: lets a static_assert in
// a stub fire at the use, not at the definition.
template <typename...>
inline constexpr bool dependent_false_v = false;

// What a stub returns: declared, never defined, and dependent on the stub's
// gate parameter, so the return type need not be default-constructible
// (Device is not) and nothing is checked before the static_assert fires.
template <typename T, typename Gate>
T unavailable_result();

HIDDEN_NAMESPACE_END(torch, stable, detail)

// The message of every version stub; version_name is the macro's name as a
// string ("TORCH_VERSION_2_10_0"), dotted the level ("2.10").
#define STABLE_VERSION_ERROR_(what, version_name, dotted)                        \
  what " requires TORCH_FEATURE_VERSION >= " version_name " (stable ABI " dotted \
       "); this extension targets an older level "                               \
       "(TORCH_TARGET_VERSION): raise the target or avoid this API"

// A free-function stub with the real function's parameter types (and
// defaults), so that any call that would compile against the newer level
// fails with the message above instead of "not declared".
//   STABLE_UNAVAILABLE_FN_(Tensor, reshape, (const Tensor&, IntHeaderOnlyArrayRef),
//                          "TORCH_VERSION_2_10_0", "2.10")
#define STABLE_UNAVAILABLE_FN_(ret, name, params, version_name, dotted)                  \
  template <typename StableGate_ = void>                                                 \
  inline ret name params {                                                               \
    static_assert(::torch::stable::detail::dependent_false_v<StableGate_>,               \
                  STABLE_VERSION_ERROR_("torch::stable::" #name, version_name, dotted)); \
    return ::torch::stable::detail::unavailable_result<ret, StableGate_>();              \
  }

// stabletorch additions (APIs PyTorch's stable headers do not have: the
// Scalar type and its conversions, add, mul, the Scalar overloads of fill_
// and full) are declared only when the extension opts in with
// STABLETORCH_EXTENSIONS (stabletorch_add_extension(... STABLETORCH_EXTENSIONS)).
// Without it, an extension compiles against PyTorch's headers unchanged and
// its binary imports only functions PyTorch exports, so it runs on either
// runtime; a use of an addition is a compile error that says so.
#define STABLETORCH_EXTENSION_ERROR_(what)                                    \
  what " is a stabletorch addition that PyTorch's stable ABI does not have: " \
       "define STABLETORCH_EXTENSIONS to use it (the plugin then runs on "    \
       "stabletorch only)"

// A free-function stub for an addition, as STABLE_UNAVAILABLE_FN_ for a
// level.
#define STABLETORCH_EXTENSION_FN_(ret, name, params)                        \
  template <typename StableGate_ = void>                                    \
  inline ret name params {                                                  \
    static_assert(::torch::stable::detail::dependent_false_v<StableGate_>,  \
                  STABLETORCH_EXTENSION_ERROR_("torch::stable::" #name));   \
    return ::torch::stable::detail::unavailable_result<ret, StableGate_>(); \
  }
