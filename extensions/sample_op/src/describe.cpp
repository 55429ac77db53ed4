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
    os << " strides=" << x.strides() << " offset=" << x.storage_offset()
       << " device=" << (x.is_cpu() ? "cpu" : "accelerator") << ":"
       << x.get_device_index() << " contiguous=" << (x.is_contiguous() ? "yes" : "no");
  }
  return os.str();
}

}  // namespace sample_op
