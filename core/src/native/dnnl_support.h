// What every oneDNN call in the native layer needs: its OpenMP thread
// count kept in step with ours, and its status codes turned into errors.
#pragma once

#include <oneapi/dnnl/dnnl.h>

namespace st::native {

// Sets the calling thread's OpenMP thread count, which oneDNN (Debian's
// build) parallelizes with, to get_num_threads(), or to 1 inside one of
// our parallel regions, so that a oneDNN call started from a parallel_for
// body runs on its calling thread only. Call before each oneDNN
// execution; it affects the calling thread only.
void sync_dnnl_threads();

// Throws st::Error naming `fn` and the status unless `s` is dnnl_success.
void check_dnnl(dnnl_status_t s, const char* fn);

}  // namespace st::native
