// Intra-op parallelism on the core's thread pool.
#include <st/core/parallel.h>
#include <torch/csrc/stable/c/shim.h>

#include "error_state.h"
#include "handle_types.h"

extern "C" {

AOTITorchError torch_parallel_for(int64_t begin, int64_t end, int64_t grain_size, ParallelFunc func,
                                  void* ctx) {
  STC_API_BEGIN
  ST_CHECK(func != nullptr, "func: null function");
  ST_CHECK(grain_size >= 0, "grain_size: must be >= 0, got ", grain_size);
  // An exception thrown by func (a C++ extension) in any chunk is rethrown
  // here after every chunk finished, and reported as a failure.
  st::parallel_for(begin, end, grain_size, [func, ctx](int64_t b, int64_t e) { func(b, e, ctx); });
  STC_API_END
}

AOTITorchError torch_get_thread_idx(uint32_t* out_thread_idx) {
  STC_API_BEGIN
  stc::check_out(out_thread_idx, "out_thread_idx");
  *out_thread_idx = static_cast<uint32_t>(st::get_thread_idx());
  STC_API_END
}

AOTITorchError torch_get_num_threads(uint32_t* out_num_threads) {
  STC_API_BEGIN
  stc::check_out(out_num_threads, "out_num_threads");
  *out_num_threads = static_cast<uint32_t>(st::get_num_threads());
  STC_API_END
}

}  // extern "C"
