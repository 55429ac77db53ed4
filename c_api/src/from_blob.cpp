// Wrapping external memory as a tensor: create_tensor_from_blob(_v2)
// (caller keeps ownership) and torch_from_blob (with a deleter + context).
// With data == NULL every variant allocates like empty_strided, as PyTorch.
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include <st/core/empty_tensor.h>
#include <st/core/from_blob.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>

#include "abi_codes.h"
#include "error_state.h"
#include "handle_types.h"
#include "loader/plugin_registry.h"
#include "tensor_geometry.h"

namespace {

using BlobDeleter = void (*)(void* data, void* ctx);

// The context of a storage whose blob has an extension deleter. When the
// deleter is code of a loaded plugin, the tensor is counted against it so
// the plugin cannot be unloaded under it (Note [Plugin ownership]).
struct BlobOwner {
  BlobDeleter deleter;
  void* data;
  void* ctx;
  stc::plugins::Plugin* plugin = nullptr;
  uint64_t plugin_tensor_id = 0;
};

void delete_blob(void* context) {
  BlobOwner* owner = static_cast<BlobOwner*>(context);
  try {
    stc::plugins::PluginCall in_plugin(owner->plugin);
    owner->deleter(owner->data, owner->ctx);
  } catch (...) {
    // An extension deleter that throws: nothing can be reported from a
    // storage's destructor; the blob is considered released.
  }
  stc::plugins::tensor_released(owner->plugin, owner->plugin_tensor_id);
  delete owner;
}

BlobOwner* new_blob_owner(BlobDeleter deleter, void* data, void* ctx, size_t nbytes) {
  auto owner = std::make_unique<BlobOwner>(BlobOwner{deleter, data, ctx});
  // A function pointer's value is its code address (POSIX dladdr relies on
  // the same); memcpy avoids a cast between function and object pointers.
  const void* code = nullptr;
  static_assert(sizeof(code) == sizeof(deleter), "function pointers are address-sized");
  std::memcpy(&code, &deleter, sizeof(code));
  owner->plugin = stc::plugins::plugin_containing(code);
  if (owner->plugin != nullptr) {
    owner->plugin_tensor_id = stc::plugins::tensor_created(
        owner->plugin, "blob of " + std::to_string(nbytes) + " bytes at " +
                           std::to_string(reinterpret_cast<uintptr_t>(data)));
  }
  return owner.release();
}

// Validates everything first, so that a failure never runs the deleter:
// on failure the caller keeps ownership of data.
AtenTensorHandle from_blob(void* data, int64_t ndim, const int64_t* sizes_ptr,
                           const int64_t* strides_ptr, int64_t storage_offset, int32_t dtype,
                           int32_t device_type, int32_t device_index, int32_t layout,
                           const uint8_t* opaque_metadata, int64_t opaque_metadata_size,
                           BlobDeleter deleter, void* deleter_ctx) {
  const stc::Geometry g = stc::read_geometry(ndim, sizes_ptr, strides_ptr);
  const auto st_dtype = stc::dtype_from_code(dtype, "dtype");
  const st::Device device = stc::device_from_codes(device_type, device_index, "device");
  const auto st_layout = stc::layout_from_code(layout, "layout");
  ST_CHECK(st_layout == torch::headeronly::Layout::Strided, "layout: only the strided layout (",
           static_cast<int>(torch::headeronly::Layout::Strided), ") is supported, got ", layout);
  ST_CHECK(opaque_metadata_size == 0, "opaque_metadata: must be empty for the strided layout, got ",
           opaque_metadata_size, " bytes");
  (void)opaque_metadata;
  ST_CHECK(storage_offset >= 0, "storage_offset: must be >= 0, got ", storage_offset);
  if (data == nullptr) {
    ST_CHECK(storage_offset == 0, "storage_offset: must be 0 when data is NULL (allocating), got ",
             storage_offset);
    return stc::new_tensor_handle(
        st::detail::empty_strided_generic(g.sizes_ref(), g.strides_ref(), st_dtype, device));
  }
  // The core's rule for wrapped memory (alignment, extent): checked here
  // too, before the blob owner exists, so a refused blob is never owned.
  const size_t nbytes = st::detail::check_blob("data", data, g.sizes_ref(), g.strides_ref(),
                                               storage_offset, st_dtype);
  // Everything that can fail for caller errors happened above; only
  // allocation failures remain.
  AtenTensorHandle handle = stc::new_tensor_handle(st::Tensor());
  try {
    // With a deleter the tensor owns the blob from here on (even if an
    // allocation inside fails, the deleter then runs: out of memory only).
    stc::tensor_of(handle, "ret") =
        deleter != nullptr
            ? st::detail::from_blob(data, g.sizes_ref(), g.strides_ref(), storage_offset, st_dtype,
                                    device, new_blob_owner(deleter, data, deleter_ctx, nbytes),
                                    &delete_blob)
            : st::detail::from_blob(data, g.sizes_ref(), g.strides_ref(), storage_offset, st_dtype,
                                    device);
  } catch (...) {
    stc::destroy_if_live<st::Tensor>(handle);
    throw;
  }
  return handle;
}

}  // namespace

extern "C" {

// Declared in a version block newer than these headers' own level, so the
// declaration is not visible here: export the definition explicitly.

AOTITorchError aoti_torch_create_tensor_from_blob(void* data, int64_t ndim,
                                                  const int64_t* sizes_ptr,
                                                  const int64_t* strides_ptr,
                                                  int64_t storage_offset, int32_t dtype,
                                                  int32_t device_type, int32_t device_index,
                                                  AtenTensorHandle* ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  *ret = from_blob(data, ndim, sizes_ptr, strides_ptr, storage_offset, dtype, device_type,
                   device_index, static_cast<int32_t>(torch::headeronly::Layout::Strided), nullptr,
                   0, nullptr, nullptr);
  STC_API_END
}

AOTITorchError aoti_torch_create_tensor_from_blob_v2(
    void* data, int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr,
    int64_t storage_offset, int32_t dtype, int32_t device_type, int32_t device_index,
    AtenTensorHandle* ret, int32_t layout, const uint8_t* opaque_metadata,
    int64_t opaque_metadata_size) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  *ret = from_blob(data, ndim, sizes_ptr, strides_ptr, storage_offset, dtype, device_type,
                   device_index, layout, opaque_metadata, opaque_metadata_size, nullptr, nullptr);
  STC_API_END
}

AOTI_TORCH_EXPORT AOTITorchError torch_from_blob(
    void* data, int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr,
    int64_t storage_offset, int32_t dtype, int32_t device_type, int32_t device_index,
    AtenTensorHandle* ret, int32_t layout, const uint8_t* opaque_metadata,
    int64_t opaque_metadata_size, void (*deleter)(void* data, void* ctx), void* deleter_ctx) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  *ret =
      from_blob(data, ndim, sizes_ptr, strides_ptr, storage_offset, dtype, device_type,
                device_index, layout, opaque_metadata, opaque_metadata_size, deleter, deleter_ctx);
  STC_API_END
}

}  // extern "C"
