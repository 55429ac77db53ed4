#include <st/core/wrap_dim.h>

namespace st {
namespace detail {

void throw_dim_out_of_range(int64_t dim, int64_t min, int64_t max) {
  ST_ERROR("Dimension out of range (expected to be in range of [", min, ", ", max, "], but got ",
           dim, ")");
}

void throw_dim_on_scalar(int64_t dim) {
  ST_ERROR("Dimension specified as ", dim, " but tensor has no dimensions");
}

}  // namespace detail
}  // namespace st
