// The out-of-line error of st/native/loops.h.
#include <st/native/loops.h>

namespace st::native::detail {

void throw_kernel_type_mismatch(const char* op, int operand, size_t expected, size_t got) {
  ST_ERROR(op, ": internal error: kernel operand ", operand, " has element size ", expected,
           " but the tensor's is ", got);
}

}  // namespace st::native::detail
