// A C++ plugin whose code throws where the loader cannot catch it: it
// defines throwns::op(int x) -> int through the C ABI and then, by
// THROW_AT:
//   1  throws from a namespace-scope object's constructor (at load)
//   2  throws from an __attribute__((constructor)) function (at load)
//   3  throws from a namespace-scope object's destructor (at unload)
// The loader tests expect the process to end with a message naming the
// plugin and the exception (Note [Exceptions from plugin initializers and
// finalizers] in c_api/src/loader/plugin_registry.cpp).
#include <stdexcept>

#include <torch/csrc/inductor/aoti_torch/c/shim.h>

namespace {

TorchLibraryHandle g_lib = nullptr;

void op(StableIValue*, uint64_t, uint64_t) {}

void register_op() {
  if (aoti_torch_library_init_fragment("throwns", __FILE__, __LINE__, &g_lib) == 0) {
    aoti_torch_library_def(g_lib, "op(int x) -> int");
  }
  (void)&op;
}

#if THROW_AT == 1
struct ThrowsAtLoad {
  ThrowsAtLoad() {
    register_op();
    throw std::runtime_error("static object constructor failed on purpose");
  }
};
ThrowsAtLoad g_throws_at_load;
#elif THROW_AT == 2
__attribute__((constructor)) void throws_from_constructor() {
  register_op();
  throw std::runtime_error("constructor function failed on purpose");
}
#elif THROW_AT == 3
struct ThrowsAtUnload {
  ThrowsAtUnload() { register_op(); }
  // noexcept(false) as a plugin author might write it; C++ still ends the
  // process when it throws during static destruction.
  ~ThrowsAtUnload() noexcept(false) {
    throw std::runtime_error("static object destructor failed on purpose");
  }
};
ThrowsAtUnload g_throws_at_unload;
#endif

}  // namespace
