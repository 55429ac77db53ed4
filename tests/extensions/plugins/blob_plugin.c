/* A plugin that hands out tensors whose memory it owns: blobns::make(int n)
 * -> Tensor wraps a malloc'ed buffer with torch_from_blob and a deleter in
 * this plugin, so the core must refuse to unload it while one lives.
 * blobns::make_gated(int gate, int n) does the same once the caller lets it:
 * `gate` is the address of two ints; the kernel sets the first to 1, waits
 * until the caller sets the second to 1, then makes the tensor, so a test
 * can unload the plugin while the kernel is about to call torch_from_blob.
 * blobns::ping(int x) -> int returns x: a call into the plugin that makes
 * nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <torch/csrc/inductor/aoti_torch/c/shim.h>

/* A 2.11 function: declared by the headers only for targets >= 2.11, but
 * exported by this core; declared here as a plugin would after checking
 * aoti_torch_abi_version(). */
AOTITorchError torch_from_blob(void* data, int64_t ndim, const int64_t* sizes_ptr,
                               const int64_t* strides_ptr, int64_t storage_offset, int32_t dtype,
                               int32_t device_type, int32_t device_index, AtenTensorHandle* ret,
                               int32_t layout, const uint8_t* opaque_metadata,
                               int64_t opaque_metadata_size, void (*deleter)(void* data, void* ctx),
                               void* deleter_ctx);

int blob_plugin_live_blobs = 0;

static TorchLibraryHandle def_lib = NULL;
static TorchLibraryHandle impl_lib = NULL;

static void free_blob(void* data, void* ctx) {
  (void)ctx;
  free(data);
  __atomic_sub_fetch(&blob_plugin_live_blobs, 1, __ATOMIC_RELAXED);
}

static AtenTensorHandle make_blob(int64_t n) {
  int64_t stride = 1;
  AtenTensorHandle out = NULL;
  float* data;
  int64_t i;
  data = (float*)malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
  for (i = 0; i < n; ++i) data[i] = (float)i;
  if (torch_from_blob(data, 1, &n, &stride, 0, aoti_torch_dtype_float32(),
                      aoti_torch_device_type_cpu(), 0, &out, aoti_torch_layout_strided(), NULL, 0,
                      free_blob, NULL) != AOTI_TORCH_SUCCESS) {
    free(data);
    abort();
  }
  __atomic_add_fetch(&blob_plugin_live_blobs, 1, __ATOMIC_RELAXED);
  return out;
}

static void make(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  int64_t n;
  AtenTensorHandle out;
  (void)num_args;
  (void)num_outputs;
  memcpy(&n, &stack[0], sizeof(n));
  out = make_blob(n);
  memcpy(&stack[0], &out, sizeof(out));
}

static void ping(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  (void)stack;
  (void)num_args;
  (void)num_outputs;
}

static void make_gated(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  int64_t address;
  int64_t n;
  int* gate;
  AtenTensorHandle out;
  (void)num_args;
  (void)num_outputs;
  memcpy(&address, &stack[0], sizeof(address));
  memcpy(&n, &stack[1], sizeof(n));
  gate = (int*)(intptr_t)address;
  __atomic_store_n(&gate[0], 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&gate[1], __ATOMIC_SEQ_CST) == 0) {
  }
  out = make_blob(n);
  memcpy(&stack[0], &out, sizeof(out));
}

__attribute__((constructor)) static void register_ops(void) {
  aoti_torch_library_init_def("blobns", __FILE__, __LINE__, &def_lib);
  aoti_torch_library_def(def_lib, "make(int n) -> Tensor");
  aoti_torch_library_def(def_lib, "make_gated(int gate, int n) -> Tensor");
  aoti_torch_library_def(def_lib, "ping(int x) -> int");
  aoti_torch_library_init_impl("blobns", "CompositeExplicitAutograd", __FILE__, __LINE__,
                               &impl_lib);
  aoti_torch_library_impl(impl_lib, "make", make);
  aoti_torch_library_impl(impl_lib, "make_gated", make_gated);
  aoti_torch_library_impl(impl_lib, "ping", ping);
}

__attribute__((destructor)) static void deregister_ops(void) {
  aoti_torch_delete_library_object(impl_lib);
  aoti_torch_delete_library_object(def_lib);
}
