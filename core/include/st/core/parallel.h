// Intra-op parallelism: a fixed pool of worker threads and parallel_for.
//
// The pool has get_num_threads() - 1 workers; the calling thread runs one
// chunk itself. Its size comes from STABLETORCH_NUM_THREADS, else the
// number of cores, and can be changed with set_num_threads. Idle workers
// sleep on a condition variable (no spinning).
#pragma once

#include <cstdint>
#include <functional>

#include <st/core/checked_arithmetic.h>
#include <st/core/export.h>

namespace st {

// Number of threads parallel_for may use (workers + the caller), >= 1.
ST_API int get_num_threads();
// Resizes the pool (n >= 1). Throws st::Error for n < 1 or when called
// from inside a parallel region. Waits for running parallel_for calls.
ST_API void set_num_threads(int n);
// Index of the chunk the current thread runs inside parallel_for, in
// [0, get_num_threads()); 0 outside a parallel region.
ST_API int get_thread_idx() noexcept;
// Whether the current thread is inside a parallel_for body.
ST_API bool in_parallel_region() noexcept;

namespace detail {
ST_API void parallel_run(int64_t begin, int64_t end, int64_t grain_size,
                         const std::function<void(int64_t, int64_t)>& fn);
}  // namespace detail

// Calls fn(chunk_begin, chunk_end) over [begin, end) split into at most
// get_num_threads() chunks of at least grain_size elements. Runs inline
// when the range is small, the pool has one thread, or the call is nested
// inside another parallel_for. The first exception thrown by any chunk is
// rethrown in the caller after all chunks have finished. A range with more
// than INT64_MAX elements (end - begin overflows) is refused with an
// st::Error before fn runs: its length, and so its chunks, are not
// representable.
template <typename F>
void parallel_for(int64_t begin, int64_t end, int64_t grain_size, const F& fn) {
  if (begin >= end) {
    return;
  }
  const int64_t length =
      checked_sub(end, begin, "parallel_for", "the length end - begin of the range");
  if (length <= grain_size || in_parallel_region() || get_num_threads() == 1) {
    fn(begin, end);
    return;
  }
  detail::parallel_run(begin, end, grain_size,
                       std::function<void(int64_t, int64_t)>(std::cref(fn)));
}

}  // namespace st
