#include <st/core/tensor.h>

namespace st {
namespace detail {

void throw_undefined_tensor(const char* what) {
  ST_ERROR("Tensor: cannot ", what, " an undefined tensor");
}

void throw_dtype_mismatch(ScalarType expected, ScalarType found) {
  ST_ERROR("expected scalar type ", torch::headeronly::toString(expected), " but found ",
           torch::headeronly::toString(found));
}

}  // namespace detail
}  // namespace st
