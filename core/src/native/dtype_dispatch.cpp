// The out-of-line error of st/native/dtype_dispatch.h.
#include <st/native/dtype_dispatch.h>

#include <st/core/error.h>

namespace st::native {

void throw_dtype_not_implemented(const char* op, ScalarType t) {
  ST_ERROR("\"", op, "\" not implemented for '", torch::headeronly::toString(t), "'");
}

}  // namespace st::native
