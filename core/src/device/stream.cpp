#include <st/device/stream.h>

namespace st {

std::ostream& operator<<(std::ostream& os, const Stream& stream) {
  return os << "stream " << stream.id() << " on " << stream.device();
}

}  // namespace st
