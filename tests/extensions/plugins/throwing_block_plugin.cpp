// An SDK plugin whose STABLE_TORCH_LIBRARY block throws after its first
// def, beside a fragment and an impl block that succeed: the SDK catches
// the exception and reports it to the core, and the loader must refuse the
// plugin and roll back everything it registered (all three blocks).
#include <torch/csrc/stable/library.h>

#include <stdexcept>

namespace {

void first_kernel(StableIValue*, uint64_t, uint64_t) {}

}  // namespace

STABLE_TORCH_LIBRARY(throwing_block, m) {
  m.def("first(int x) -> int");
  throw std::runtime_error("the block failed after its first def");
}

STABLE_TORCH_LIBRARY_IMPL(throwing_block, CompositeExplicitAutograd, m) {
  m.impl("first", &first_kernel);
}

STABLE_TORCH_LIBRARY_FRAGMENT(throwing_block_other, m) { m.def("other(int x) -> int"); }
