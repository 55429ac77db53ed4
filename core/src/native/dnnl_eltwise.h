// oneDNN's eltwise forward primitive over contiguous float32 arrays: the
// float32 gelu (erf form) of contiguous operands of at least
// kDnnlGeluErfMinElements elements runs through it, as PyTorch's does.
#pragma once

#include <cstdint>

namespace st::native {

// From this many elements on, dnnl_gelu_erf_f32 takes clearly less time
// than the per-ISA gelu (vec_math): oneDNN costs ~2.5 us per call
// (primitive creation through its primitive cache, memory objects,
// execution) and ~0.9 ns per element, ours ~2.25 ns per element; they
// cross at ~1,800 elements (thread CPU time, one thread, Zen 3, AVX2;
// 4,096: 6.1 against 9.3 us).
inline constexpr int64_t kDnnlGeluErfMinElements = 4096;

// dst[i] = src[i] * Phi(src[i]) for i in [0, n), Phi the standard normal
// CDF, by oneDNN's gelu_erf eltwise primitive. dst == src computes in
// place; otherwise the arrays must not overlap. n == 0 does nothing.
// Runs on the calling thread only: callers split long arrays with
// parallel_for (TensorIterator does), which follows get_num_threads().
// Throws st::Error when oneDNN fails (no handle leaks). Thread-safe.
void dnnl_gelu_erf_f32(float* dst, const float* src, int64_t n);

}  // namespace st::native
