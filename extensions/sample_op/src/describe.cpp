// describe: strings in (std::string_view) and out (std::string).
#include "sample_op.h"

#include <torch/csrc/stable/ops.h>
#include <torch/headeronly/util/Exception.h>

#include <sstream>

namespace sample_op {

std::string describe(const Tensor& x, std::string_view label, bool verbose) {
  std::ostringstream os;
  os << label << ": ";
  if (!x.defined()) {
    os << "undefined tensor";
    return os.str();
  }
  os << x.scalar_type() << x.sizes();
  if (verbose) {
    os << " strides=" << x.strides() << " offset=" << x.storage_offset() << " device=";
    if (x.is_cpu()) {
      os << "cpu";  // the CPU has no index (get_device_index() is -1)
    } else {
      os << "accelerator:" << x.get_device_index();
    }
    os << " contiguous=" << (x.is_contiguous() ? "yes" : "no");
  }
  return os.str();
}

}  // namespace sample_op
