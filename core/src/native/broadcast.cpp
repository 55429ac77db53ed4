// Shape broadcasting; see st/native/broadcast.h.
#include <st/native/broadcast.h>

#include <algorithm>

#include <st/core/error.h>

namespace st::native {

std::vector<int64_t> infer_size(IntArrayRef a, IntArrayRef b) {
  const size_t na = a.size(), nb = b.size();
  const size_t n = std::max(na, nb);
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t ia = static_cast<int64_t>(i) - static_cast<int64_t>(n - na);
    const int64_t ib = static_cast<int64_t>(i) - static_cast<int64_t>(n - nb);
    const int64_t sa = ia >= 0 ? a[ia] : 1;
    const int64_t sb = ib >= 0 ? b[ib] : 1;
    ST_CHECK(sa == sb || sa == 1 || sb == 1, "The size of tensor a (", sa,
             ") must match the size of tensor b (", sb, ") at non-singleton dimension ", i);
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

}  // namespace st::native
