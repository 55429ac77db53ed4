/* A plugin that hands out tensors whose memory it owns: blobns::make(int n)
 * -> Tensor wraps a malloc'ed buffer with torch_from_blob and a deleter in
 * this plugin, so the core must refuse to unload it while one lives. */
#include <stdlib.h>
#include <string.h>

#include <torch/csrc/inductor/aoti_torch/c/shim.h>

/* A 2.11 function: declared by the headers only for targets >= 2.11, but
 * exported by this core; declared here as a plugin would after checking
 * aoti_torch_abi_version(). */
AOTITorchError torch_from_blob(void* data, int64_t ndim, const int64_t* sizes_ptr,
                               const int64_t* strides_ptr, int64_t storage_offset,
                               int32_t dtype, int32_t device_type, int32_t device_index,
                               AtenTensorHandle* ret, int32_t layout,
                               const uint8_t* opaque_metadata, int64_t opaque_metadata_size,
                               void (*deleter)(void* data, void* ctx), void* deleter_ctx);

int blob_plugin_live_blobs = 0;

static TorchLibraryHandle def_lib = NULL;
static TorchLibraryHandle impl_lib = NULL;

static void free_blob(void* data, void* ctx) {
  (void)ctx;
  free(data);
  --blob_plugin_live_blobs;
}

static void make(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  int64_t n;
  int64_t stride = 1;
  AtenTensorHandle out = NULL;
  float* data;
  int64_t i;
  (void)num_args;
  (void)num_outputs;
  memcpy(&n, &stack[0], sizeof(n));
  data = (float*)malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
  for (i = 0; i < n; ++i) data[i] = (float)i;
  if (torch_from_blob(data, 1, &n, &stride, 0, aoti_torch_dtype_float32(),
                      aoti_torch_device_type_cpu(), 0, &out, aoti_torch_layout_strided(), NULL, 0,
                      free_blob, NULL) != AOTI_TORCH_SUCCESS) {
    free(data);
    abort();
  }
  ++blob_plugin_live_blobs;
  memcpy(&stack[0], &out, sizeof(out));
}

__attribute__((constructor)) static void register_ops(void) {
  aoti_torch_library_init_def("blobns", __FILE__, __LINE__, &def_lib);
  aoti_torch_library_def(def_lib, "make(int n) -> Tensor");
  aoti_torch_library_init_impl("blobns", "CompositeExplicitAutograd", __FILE__, __LINE__,
                               &impl_lib);
  aoti_torch_library_impl(impl_lib, "make", make);
}

__attribute__((destructor)) static void deregister_ops(void) {
  aoti_torch_delete_library_object(impl_lib);
  aoti_torch_delete_library_object(def_lib);
}
