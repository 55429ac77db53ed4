/* A minimal plugin written in C against the C ABI only: it defines
 * PLUGIN_NS::add_one(int x) -> int and PLUGIN_NS::scaled(Tensor x) -> Tensor
 * (a clone, through the core). Built several times with different
 * namespaces and behaviours to test the loader:
 *   PLUGIN_NS            the namespace it DEFs
 *   PLUGIN_LEAKS         never deletes its library objects (the loader must)
 *   PLUGIN_DESCRIPTOR_TARGET  embed a descriptor targeting this level
 *   PLUGIN_LOADS_FIRST   a plugin path its initializer loads (and never
 *                        unloads) before registering its own operators */
#include <stdlib.h>
#include <string.h>

#include <stabletorch/c/loader.h>
#include <stabletorch/c/plugin_descriptor.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

#ifdef PLUGIN_DESCRIPTOR_TARGET
__attribute__((section(STABLETORCH_PLUGIN_SECTION),
               used)) static const StableTorchPluginDescriptor plugin_descriptor = {
    "STABLETORCH-PLUG",
    STABLETORCH_PLUGIN_DESCRIPTOR_VERSION,
    sizeof(StableTorchPluginDescriptor),
    PLUGIN_DESCRIPTOR_TARGET,
    PLUGIN_DESCRIPTOR_TARGET,
    100,
    0};
#endif

#define STR2(x) #x
#define STR(x) STR2(x)

static TorchLibraryHandle def_lib = NULL;
static TorchLibraryHandle impl_lib = NULL;

static void add_one(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  int64_t x;
  (void)num_args;
  (void)num_outputs;
  memcpy(&x, &stack[0], sizeof(x));
  x += 1;
  memcpy(&stack[0], &x, sizeof(x));
}

static void scaled(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  AtenTensorHandle in;
  AtenTensorHandle out = NULL;
  (void)num_args;
  (void)num_outputs;
  memcpy(&in, &stack[0], sizeof(in));
  if (aoti_torch_clone(in, &out) != AOTI_TORCH_SUCCESS) abort();
  aoti_torch_delete_tensor_object(in); /* the kernel stole its argument */
  memcpy(&stack[0], &out, sizeof(out));
}

__attribute__((constructor)) static void register_ops(void) {
#ifdef PLUGIN_LOADS_FIRST
  StableTorchPluginHandle first = NULL;
  if (stabletorch_load_library(PLUGIN_LOADS_FIRST, &first) != 0) return;
#endif
  if (aoti_torch_library_init_def(STR(PLUGIN_NS), __FILE__, __LINE__, &def_lib) != 0) return;
  aoti_torch_library_def(def_lib, "add_one(int x) -> int");
  aoti_torch_library_def(def_lib, "scaled(Tensor x) -> Tensor");
  if (aoti_torch_library_init_impl(STR(PLUGIN_NS), "CompositeExplicitAutograd", __FILE__, __LINE__,
                                   &impl_lib) != 0)
    return;
  aoti_torch_library_impl(impl_lib, "add_one", add_one);
  aoti_torch_library_impl(impl_lib, "scaled", scaled);
}

#ifndef PLUGIN_LEAKS
__attribute__((destructor)) static void deregister_ops(void) {
  aoti_torch_delete_library_object(impl_lib);
  aoti_torch_delete_library_object(def_lib);
}
#endif
