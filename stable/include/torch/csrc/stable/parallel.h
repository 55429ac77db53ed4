// Intra-op parallelism on the core's thread pool (2.10):
// torch::stable::parallel_for(begin, end, grain_size, f) calls
// f(chunk_begin, chunk_end) on disjoint chunks covering [begin, end), and
// get_num_threads() reports the pool's size.
//
// An exception thrown by f never crosses the C ABI: the first one is kept
// (the other chunks still run to completion) and rethrown in the caller
// once torch_parallel_for has returned.
#pragma once

#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/detail/version_gate.h>
#include <torch/csrc/stable/macros.h>
#include <torch/headeronly/macros/Macros.h>

#include <cstdint>
#include <exception>
#include <mutex>

HIDDEN_NAMESPACE_BEGIN(torch, stable)

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0

namespace detail {

template <typename F>
struct ParallelContext {
  const F* f;
  std::mutex mutex;
  std::exception_ptr error;

  // The C trampoline: runs one chunk, catching whatever f throws.
  static void run(int64_t begin, int64_t end, void* ctx) noexcept {
    auto* self = static_cast<ParallelContext*>(ctx);
    try {
      (*self->f)(begin, end);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(self->mutex);
      if (!self->error) self->error = std::current_exception();
    }
  }
};

}  // namespace detail

template <typename F>
void parallel_for(int64_t begin, int64_t end, int64_t grain_size, const F& f) {
  detail::ParallelContext<F> ctx{&f, {}, nullptr};
  STABLE_TORCH_ERROR_CODE_CHECK(
      torch_parallel_for(begin, end, grain_size, &detail::ParallelContext<F>::run, &ctx));
  if (ctx.error) std::rethrow_exception(ctx.error);
}

inline uint32_t get_num_threads() {
  uint32_t n = 0;
  STABLE_TORCH_ERROR_CODE_CHECK(torch_get_num_threads(&n));
  return n;
}

#else

template <typename F>
void parallel_for(int64_t, int64_t, int64_t, const F&) {
  static_assert(
      detail::dependent_false_v<F>,
      STABLE_VERSION_ERROR_("torch::stable::parallel_for", "TORCH_VERSION_2_10_0", "2.10"));
}
STABLE_UNAVAILABLE_FN_(uint32_t, get_num_threads, (), "TORCH_VERSION_2_10_0", "2.10")

#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0

HIDDEN_NAMESPACE_END(torch, stable)
