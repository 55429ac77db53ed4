// See dnnl_support.h.
#include "dnnl_support.h"

#include <algorithm>

#include <omp.h>

#include <st/core/error.h>
#include <st/core/parallel.h>

namespace st::native {

// omp_set_num_threads only changes the calling thread's setting.
void sync_dnnl_threads() {
  const int n = in_parallel_region() ? 1 : std::max(1, get_num_threads());
  if (omp_get_max_threads() != n) omp_set_num_threads(n);
}

void check_dnnl(dnnl_status_t s, const char* fn) {
  ST_CHECK(s == dnnl_success, fn, " failed with oneDNN status ", static_cast<int>(s));
}

}  // namespace st::native
