// Operator registration for extensions: STABLE_TORCH_LIBRARY(ns, m),
// STABLE_TORCH_LIBRARY_FRAGMENT(ns, m), STABLE_TORCH_LIBRARY_IMPL(ns, key, m),
// m.def(schema), m.def(schema, tags) (2.12), m.impl(name, kernel),
// m.set_python_module(module) (2.13), and TORCH_BOX(&fn), which turns a
// typed C++ function into the boxed kernel the C ABI takes.
//
// Registration runs in static initializers while the core loads the
// plugin. Every failure is an error code from the C ABI, turned here into
// one line on stderr naming the place, and recorded by the core against
// the plugin, which the loader then refuses whole: nothing throws out of a
// static initializer (that would kill the process at dlopen). A block that
// throws is caught here and reported to the core
// (stabletorch_library_report_failure), which drops what the block
// registered and refuses the plugin likewise.
//
// Including this header also embeds the plugin descriptor
// (detail/plugin_descriptor.h) the loader reads before running any code.
#pragma once

#include <stabletorch/c/library.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/detail/box.h>
#include <torch/csrc/stable/detail/plugin_descriptor.h>
#include <torch/csrc/stable/detail/version_gate.h>
#include <torch/csrc/stable/macros.h>
#include <torch/csrc/stable/stableivalue_conversions.h>
#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/core/enum_tag.h>
#include <torch/headeronly/macros/Macros.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

HIDDEN_NAMESPACE_BEGIN(torch, stable, detail)

using BoxedKernelFn = void (*)(StableIValue*, uint64_t, uint64_t);

// stabletorch_library_impl_with_signature of the running core, or nullptr
// when the core predates it (then kernels register unchecked, as in
// PyTorch). Looked up at run time so a plugin still loads into such a core.
using ImplWithSignatureFn = AOTITorchError (*)(TorchLibraryHandle, const char*, BoxedKernelFn,
                                               uint64_t, const char*);
inline ImplWithSignatureFn impl_with_signature_fn() noexcept {
  static const ImplWithSignatureFn fn = reinterpret_cast<ImplWithSignatureFn>(
      lookup_core_symbol("stabletorch_library_impl_with_signature"));
  return fn;
}

// Tells the core that a registration block failed, so that it drops what
// the block registered and refuses the loading plugin. A core without
// stabletorch_library_report_failure only gets the line on stderr.
// what: the exception's message, or nullptr for one of unknown type.
using ReportFailureFn = AOTITorchError (*)(TorchLibraryHandle, const char*);
inline void report_block_failure(TorchLibraryHandle lib, const char* what) noexcept {
  static const ReportFailureFn fn =
      reinterpret_cast<ReportFailureFn>(lookup_core_symbol("stabletorch_library_report_failure"));
  if (fn == nullptr || lib == nullptr) return;
  std::string message;
  try {
    message = what != nullptr ? std::string("the registration block threw: ") + what
                              : std::string(
                                    "the registration block threw an exception of "
                                    "unknown type");
  } catch (...) {
    // Out of memory: report without the text.
  }
  (void)fn(lib, message.c_str());
}

class StableLibrary final {
 public:
  enum class Kind { DEF, IMPL, FRAGMENT };

  // k: the dispatch key of an IMPL library (nullptr otherwise).
  StableLibrary(Kind kind, const char* ns, const char* k, const char* file, uint32_t line)
      : file_(file), line_(line) {
    AOTITorchError err = AOTI_TORCH_FAILURE;
    switch (kind) {
      case Kind::DEF:
        err = aoti_torch_library_init_def(ns, file, line, &lib_);
        break;
      case Kind::IMPL:
        err = aoti_torch_library_init_impl(ns, k, file, line, &lib_);
        break;
      case Kind::FRAGMENT:
        err = aoti_torch_library_init_fragment(ns, file, line, &lib_);
        break;
    }
    if (err != AOTI_TORCH_SUCCESS) {
      lib_ = nullptr;
      report("creating the library of namespace '" + std::string(ns) + "'");
    }
  }

  StableLibrary(const StableLibrary&) = delete;
  StableLibrary& operator=(const StableLibrary&) = delete;
  StableLibrary(StableLibrary&&) = delete;
  StableLibrary& operator=(StableLibrary&&) = delete;

  // Deregisters what this library registered (the core does it for a
  // plugin being unloaded even if this never runs).
  ~StableLibrary() { (void)aoti_torch_delete_library_object(lib_); }

  // Declares an operator: "name.overload(Type arg, ...) -> Ret".
  StableLibrary& def(const char* schema) {
    if (lib_ != nullptr && aoti_torch_library_def(lib_, schema) != AOTI_TORCH_SUCCESS) {
      report("def(\"" + std::string(schema) + "\")");
    }
    return *this;
  }

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0
  // Declares an operator that carries tags (Tag::inplace and Tag::out have
  // no C code and throw, as in PyTorch).
  StableLibrary& def(const char* schema, const std::vector<at::Tag>& tags) {
    if (lib_ == nullptr) return *this;
    std::vector<int32_t> codes;
    codes.reserve(tags.size());
    for (at::Tag t : tags) codes.push_back(to_shim_tag(t));
    if (torch_library_def_with_tags(lib_, schema, codes.data(),
                                    static_cast<int32_t>(codes.size())) != AOTI_TORCH_SUCCESS) {
      report("def(\"" + std::string(schema != nullptr ? schema : "(null)") + "\", tags)");
    }
    return *this;
  }
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
  // The operators defined after this call have their Python-side pieces
  // (e.g. fake kernels) in Python module `pymodule`; the core names it when
  // such an operator lacks a kernel.
  StableLibrary& set_python_module(const char* pymodule, const char* context = "") {
    if (lib_ != nullptr &&
        torch_library_set_python_module(lib_, pymodule, context) != AOTI_TORCH_SUCCESS) {
      report("set_python_module(\"" + std::string(pymodule != nullptr ? pymodule : "(null)") +
             "\")");
    }
    return *this;
  }
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0

  // A hand-boxed kernel: no signature is known, so none is checked.
  StableLibrary& impl(const char* name, BoxedKernelFn fn) {
    register_impl(name, fn, nullptr);
    return *this;
  }

  // A TORCH_BOX'd kernel: the core also checks its C++ signature against
  // the schema.
  StableLibrary& impl(const char* name, const BoxedKernel& kernel) {
    register_impl(name, kernel.fn, kernel.signature());
    return *this;
  }

  // The borrowed C handle (nullptr when creating the library failed).
  TorchLibraryHandle handle() const noexcept { return lib_; }

 private:
  void register_impl(const char* name, BoxedKernelFn fn, const char* signature) {
    if (lib_ == nullptr) return;
    AOTITorchError err = AOTI_TORCH_FAILURE;
    const ImplWithSignatureFn checked = signature != nullptr ? impl_with_signature_fn() : nullptr;
    if (checked != nullptr) {
      err = checked(lib_, name, fn, TORCH_ABI_VERSION, signature);
    } else {
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
      err = torch_library_impl(lib_, name, fn, TORCH_ABI_VERSION);
#else
      err = aoti_torch_library_impl(lib_, name, fn);
#endif
    }
    if (err != AOTI_TORCH_SUCCESS) report("impl(\"" + std::string(name) + "\")");
  }

  // The core has recorded the failure against the loading plugin (the
  // loader refuses it with this message); stderr covers a plugin opened
  // with a bare dlopen.
  void report(const std::string& what) const noexcept {
    const std::string core = last_core_error();
    std::fprintf(stderr, "stabletorch: %s at %s:%u failed: %s\n", what.c_str(),
                 file_ != nullptr ? file_ : "?", static_cast<unsigned>(line_),
                 core.empty() ? "(no message)" : core.c_str());
  }

  TorchLibraryHandle lib_ = nullptr;
  const char* file_;
  uint32_t line_;
};

// Runs a registration block once, at static-initialization time, on a
// library that lives as long as the plugin.
class StableTorchLibraryInit final {
 public:
  using InitFn = void(StableLibrary&);
  StableTorchLibraryInit(StableLibrary::Kind kind, InitFn* fn, const char* ns, const char* k,
                         const char* file, uint32_t line)
      : lib_(kind, ns, k, file, line) {
    if (lib_.handle() == nullptr) return;
    try {
      fn(lib_);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "stabletorch: the registration block at %s:%u threw: %s\n", file,
                   static_cast<unsigned>(line), e.what());
      report_block_failure(lib_.handle(), e.what());
    } catch (...) {
      std::fprintf(stderr, "stabletorch: the registration block at %s:%u threw\n", file,
                   static_cast<unsigned>(line));
      report_block_failure(lib_.handle(), nullptr);
    }
  }

 private:
  StableLibrary lib_;
};

HIDDEN_NAMESPACE_END(torch, stable, detail)

HIDDEN_NAMESPACE_BEGIN(torch, stable)
using detail::StableLibrary;
HIDDEN_NAMESPACE_END(torch, stable)

#define STABLE_CONCATENATE_IMPL_(a, b) a##b
#define STABLE_CONCATENATE(a, b) STABLE_CONCATENATE_IMPL_(a, b)
#ifdef __COUNTER__
#define STABLE_UID __COUNTER__
#else
#define STABLE_UID __LINE__
#endif

// The operators of namespace ns (one per namespace in the whole process).
#define STABLE_TORCH_LIBRARY(ns, m)                                                            \
  static void STABLE_TORCH_LIBRARY_init_##ns(::torch::stable::detail::StableLibrary&);         \
  static const ::torch::stable::detail::StableTorchLibraryInit                                 \
      STABLE_TORCH_LIBRARY_static_init_##ns(::torch::stable::detail::StableLibrary::Kind::DEF, \
                                            &STABLE_TORCH_LIBRARY_init_##ns, #ns, nullptr,     \
                                            __FILE__, static_cast<uint32_t>(__LINE__));        \
  void STABLE_TORCH_LIBRARY_init_##ns(::torch::stable::detail::StableLibrary& m)

// More operators of namespace ns (any number of fragments).
#define STABLE_TORCH_LIBRARY_FRAGMENT(ns, m) STABLE_TORCH_LIBRARY_FRAGMENT_UID_(ns, m, STABLE_UID)
#define STABLE_TORCH_LIBRARY_FRAGMENT_UID_(ns, m, uid)                                    \
  static void STABLE_CONCATENATE(STABLE_TORCH_LIBRARY_FRAGMENT_init_##ns##_,              \
                                 uid)(::torch::stable::detail::StableLibrary&);           \
  static const ::torch::stable::detail::StableTorchLibraryInit STABLE_CONCATENATE(        \
      STABLE_TORCH_LIBRARY_FRAGMENT_static_init_##ns##_, uid)(                            \
      ::torch::stable::detail::StableLibrary::Kind::FRAGMENT,                             \
      &STABLE_CONCATENATE(STABLE_TORCH_LIBRARY_FRAGMENT_init_##ns##_, uid), #ns, nullptr, \
      __FILE__, static_cast<uint32_t>(__LINE__));                                         \
  void STABLE_CONCATENATE(STABLE_TORCH_LIBRARY_FRAGMENT_init_##ns##_,                     \
                          uid)(::torch::stable::detail::StableLibrary & m)

// Kernels of namespace ns for dispatch key k (CPU, CUDA, Meta, PrivateUse1,
// CompositeExplicitAutograd, CompositeImplicitAutograd, ...).
#define STABLE_TORCH_LIBRARY_IMPL(ns, k, m) STABLE_TORCH_LIBRARY_IMPL_UID_(ns, k, m, STABLE_UID)
#define STABLE_TORCH_LIBRARY_IMPL_UID_(ns, k, m, uid)                                            \
  static void STABLE_CONCATENATE(STABLE_TORCH_LIBRARY_IMPL_init_##ns##_##k##_,                   \
                                 uid)(::torch::stable::detail::StableLibrary&);                  \
  static const ::torch::stable::detail::StableTorchLibraryInit STABLE_CONCATENATE(               \
      STABLE_TORCH_LIBRARY_IMPL_static_init_##ns##_##k##_, uid)(                                 \
      ::torch::stable::detail::StableLibrary::Kind::IMPL,                                        \
      &STABLE_CONCATENATE(STABLE_TORCH_LIBRARY_IMPL_init_##ns##_##k##_, uid), #ns, #k, __FILE__, \
      static_cast<uint32_t>(__LINE__));                                                          \
  void STABLE_CONCATENATE(STABLE_TORCH_LIBRARY_IMPL_init_##ns##_##k##_,                          \
                          uid)(::torch::stable::detail::StableLibrary & m)
