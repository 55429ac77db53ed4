// shape_str of st/native/scalar_ops.h (item_scalar is with the conversions).
#include <st/native/scalar_ops.h>

#include <sstream>

namespace st::native {

std::string shape_str(IntArrayRef s) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << s[i];
  os << "]";
  return os.str();
}

}  // namespace st::native
