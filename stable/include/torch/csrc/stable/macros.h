// Error, warning and CUDA-check macros of the stable C++ SDK.
//
// STABLE_TORCH_ERROR_CODE_CHECK(call): turns a failing C-shim call into a
//   std::runtime_error whose text starts with the core's own message (the
//   calling thread's last error), followed by "(originally from <call> API
//   call failed at <file>, line <n>)". Prefer it to the header-only
//   TORCH_ERROR_CODE_CHECK, which only knows the call and the place.
// STD_TORCH_WARN(...): streams its arguments into one message and hands it
//   to the core's warning handler (aoti_torch_warn).
// STD_CUDA_CHECK(expr), STD_CUDA_KERNEL_LAUNCH_CHECK(): CUDA error checks
//   that throw std::runtime_error; the caller includes <cuda_runtime.h>.
// TORCH_DYNAMIC_VERSION_CALL(VERSION, SHIM, FALLBACK, args...): call a shim
//   function newer than the target level when the running core has it.
// TORCH_DYNAMIC_VERSION_CALL_2_13_0(SHIM, FALLBACK, args...): the same for a
//   2.13 shim, a direct call when the extension targets 2.13 or newer.
#pragma once

#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/version.h>
#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/Exception.h>
#include <torch/headeronly/util/shim_utils.h>

#include <sstream>
#include <stdexcept>
#include <string>

#if !defined(_WIN32)
#include <dlfcn.h>
#endif

HIDDEN_NAMESPACE_BEGIN(torch, stable, detail)

// The address of an exported C function of the running core, or nullptr.
// Used for functions declared in a version block newer than the extension's
// target (the plugin must not import them: it would not load into an older
// core) and for stabletorch_ additions an older core may lack. Searched in
// the library that defines aoti_torch_abi_version as this plugin binds it
// (the runtime the plugin runs on, also when opened RTLD_LOCAL), never in
// the global scope: with two runtimes in one process, a plugin must not
// call one runtime's function on the other's handles.
inline void* lookup_core_symbol(const char* name) noexcept {
#if !defined(_WIN32)
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&::aoti_torch_abi_version), &info) == 0 ||
      info.dli_fname == nullptr) {
    return nullptr;
  }
  void* core = ::dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (core == nullptr) return nullptr;
  void* sym = ::dlsym(core, name);
  ::dlclose(core);  // drops the reference RTLD_NOLOAD took; the core stays
  return sym;
#else
  (void)name;
  return nullptr;
#endif
}

// torch_exception_get_what_without_backtrace (2.13) of the running core, or
// nullptr when the core predates it. Looked up once per plugin.
using ExceptionWhatFn = const char* (*)();
inline ExceptionWhatFn exception_what_without_backtrace_fn() noexcept {
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
  return &torch_exception_get_what_without_backtrace;
#else
  static const ExceptionWhatFn fn = reinterpret_cast<ExceptionWhatFn>(
      lookup_core_symbol("torch_exception_get_what_without_backtrace"));
  return fn;
#endif
}

// The calling thread's last core error message, or "" when unavailable.
inline std::string last_core_error() {
  ExceptionWhatFn fn = exception_what_without_backtrace_fn();
  if (fn == nullptr) {
    return std::string();
  }
  const char* what = fn();
  return what == nullptr ? std::string() : std::string(what);
}

[[noreturn]] C10_NOINLINE inline void throw_error_code_failure(const char* call, const char* file,
                                                               int line) {
  std::string core = last_core_error();
  std::string origin =
      std::string(call) + " API call failed at " + file + ", line " + std::to_string(line);
  if (core.empty()) {
    throw std::runtime_error(origin);
  }
  throw std::runtime_error(core + " (originally from " + origin + ")");
}

template <typename... Args>
std::string stream_to_string(const Args&... args) {
  std::ostringstream os;
  (void)std::initializer_list<int>{((os << args), 0)...};
  return os.str();
}

HIDDEN_NAMESPACE_END(torch, stable, detail)

#define STABLE_TORCH_ERROR_CODE_CHECK(call)                                         \
  do {                                                                              \
    if (C10_UNLIKELY((call) != TORCH_SUCCESS)) {                                    \
      ::torch::stable::detail::throw_error_code_failure(#call, __FILE__, __LINE__); \
    }                                                                               \
  } while (0)

#define STD_TORCH_WARN(...)                                                            \
  do {                                                                                 \
    ::aoti_torch_warn(__func__, __FILE__, static_cast<uint32_t>(__LINE__),             \
                      ::torch::stable::detail::stream_to_string(__VA_ARGS__).c_str()); \
  } while (0)

// Calls SHIM(args...) when the extension targets VERSION or newer (a direct
// call), otherwise looks SHIM up in the running core and calls it if found,
// else calls FALLBACK(args...). FALLBACK's type is the type SHIM is called
// through. For rare use only: prefer raising the target.
#define TORCH_DYNAMIC_VERSION_CALL(VERSION, SHIM, FALLBACK, ...)                            \
  ([&]() {                                                                                  \
    using stable_dyn_fn_t_ = decltype(&FALLBACK);                                           \
    static const stable_dyn_fn_t_ stable_dyn_fn_ =                                          \
        (::aoti_torch_abi_version() >= (VERSION))                                           \
            ? reinterpret_cast<stable_dyn_fn_t_>(                                           \
                  ::torch::stable::detail::lookup_core_symbol(#SHIM))                       \
            : nullptr;                                                                      \
    return stable_dyn_fn_ != nullptr ? stable_dyn_fn_(__VA_ARGS__) : FALLBACK(__VA_ARGS__); \
  }())

// A 2.13 shim: the target has it, so call it (the plugin imports it); an
// older target looks it up at run time as above.
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
#define TORCH_DYNAMIC_VERSION_CALL_2_13_0(SHIM, FALLBACK, ...) \
  ([&]() { return SHIM(__VA_ARGS__); }())
#else
#define TORCH_DYNAMIC_VERSION_CALL_2_13_0(SHIM, FALLBACK, ...) \
  TORCH_DYNAMIC_VERSION_CALL(TORCH_VERSION_2_13_0, SHIM, FALLBACK, __VA_ARGS__)
#endif

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0

// expr is a cudaError_t expression; on error, throws with the core's
// description of the error (torch_c10_cuda_check_msg).
#define STD_CUDA_CHECK(EXPR)                                                                     \
  do {                                                                                           \
    const auto stable_cuda_err_ = (EXPR);                                                        \
    if (C10_UNLIKELY(stable_cuda_err_ != 0)) {                                                   \
      char* stable_cuda_msg_ = nullptr;                                                          \
      STABLE_TORCH_ERROR_CODE_CHECK(                                                             \
          torch_c10_cuda_check_msg(static_cast<int32_t>(stable_cuda_err_), __FILE__, __func__,   \
                                   static_cast<uint32_t>(__LINE__), true, &stable_cuda_msg_));   \
      std::string stable_cuda_text_ =                                                            \
          stable_cuda_msg_ != nullptr                                                            \
              ? std::string(stable_cuda_msg_)                                                    \
              : std::string("CUDA error ") + std::to_string(static_cast<int>(stable_cuda_err_)); \
      torch_c10_cuda_free_error_msg(stable_cuda_msg_);                                           \
      throw std::runtime_error(stable_cuda_text_);                                               \
    }                                                                                            \
  } while (0)

// Checks the last kernel launch (cudaGetLastError from <cuda_runtime.h>).
#define STD_CUDA_KERNEL_LAUNCH_CHECK() STD_CUDA_CHECK(cudaGetLastError())

#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
