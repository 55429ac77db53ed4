// empty_strided, as_strided, _reinterpret_tensor, create_tensor_from_blob
// (_v2) and torch_from_blob.
#include "c_api_test_util.h"

#include <vector>

using namespace stc_test;

class TensorCreationTest : public CApiTest {};

TEST_F(TensorCreationTest, EmptyStrided) {
  const int64_t sizes[] = {2, 3};
  const int64_t strides[] = {1, 2};
  AtenTensorHandle t = nullptr;
  ASSERT_C_OK(aoti_torch_empty_strided(2, sizes, strides, aoti_torch_dtype_float64(),
                                       aoti_torch_device_type_cpu(), -1, &t));
  int64_t* s = nullptr;
  ASSERT_C_OK(aoti_torch_get_strides(t, &s));
  EXPECT_EQ(s[0], 1);
  EXPECT_EQ(s[1], 2);
  int32_t dtype = 0;
  ASSERT_C_OK(aoti_torch_get_dtype(t, &dtype));
  EXPECT_EQ(dtype, aoti_torch_dtype_float64());
  aoti_torch_delete_tensor_object(t);
  // Zero-dim, and null strides (contiguous).
  ASSERT_C_OK(aoti_torch_empty_strided(0, nullptr, nullptr, aoti_torch_dtype_bool(),
                                       aoti_torch_device_type_cpu(), 0, &t));
  int64_t n = 0;
  ASSERT_C_OK(aoti_torch_get_numel(t, &n));
  EXPECT_EQ(n, 1);
  aoti_torch_delete_tensor_object(t);
}

TEST_F(TensorCreationTest, EmptyStridedBadInput) {
  const int64_t sizes[] = {2};
  const int64_t neg[] = {-1};
  AtenTensorHandle t = nullptr;
  const int32_t cpu = aoti_torch_device_type_cpu();
  const int32_t f32 = aoti_torch_dtype_float32();
  EXPECT_C_FAILURE(aoti_torch_empty_strided(1, sizes, nullptr, 12 /* QInt8 */, cpu, 0, &t),
                   "aoti_torch_empty_strided", "unsupported dtype code 12");
  EXPECT_C_FAILURE(aoti_torch_empty_strided(1, sizes, nullptr, 99, cpu, 0, &t),
                   "aoti_torch_empty_strided", "unsupported dtype code 99");
  // Past the ends of the supported-dtype mask.
  for (int32_t code : {-1, 63, 64, 1 << 20})
    EXPECT_C_FAILURE(aoti_torch_empty_strided(1, sizes, nullptr, code, cpu, 0, &t),
                     "aoti_torch_empty_strided", "unsupported dtype code " + std::to_string(code));
  EXPECT_C_FAILURE(
      aoti_torch_empty_strided(1, sizes, nullptr, f32, aoti_torch_device_type_cuda(), 128, &t),
      "aoti_torch_empty_strided", "device index 128 is out of range (expected -1 or 0..127)");
  EXPECT_C_FAILURE(aoti_torch_empty_strided(1, sizes, nullptr, f32, 5 /* FPGA */, 0, &t),
                   "aoti_torch_empty_strided", "unsupported device type code 5");
  EXPECT_C_FAILURE(aoti_torch_empty_strided(1, sizes, nullptr, f32, cpu, 1, &t),
                   "aoti_torch_empty_strided", "CPU device index must be -1 or 0");
  EXPECT_C_FAILURE(aoti_torch_empty_strided(1, sizes, nullptr, f32, cpu, -2, &t),
                   "aoti_torch_empty_strided", "out of range");
  EXPECT_C_FAILURE(aoti_torch_empty_strided(1, neg, nullptr, f32, cpu, 0, &t),
                   "aoti_torch_empty_strided", "negative");
  EXPECT_C_FAILURE(aoti_torch_empty_strided(1, sizes, neg, f32, cpu, 0, &t),
                   "aoti_torch_empty_strided", "negative");
  EXPECT_C_FAILURE(aoti_torch_empty_strided(-1, sizes, nullptr, f32, cpu, 0, &t),
                   "aoti_torch_empty_strided", "ndim");
  EXPECT_C_FAILURE(aoti_torch_empty_strided(1, nullptr, nullptr, f32, cpu, 0, &t),
                   "aoti_torch_empty_strided", "sizes_ptr: null pointer");
  EXPECT_C_FAILURE(aoti_torch_empty_strided(1, sizes, nullptr, f32, cpu, 0, nullptr),
                   "aoti_torch_empty_strided", "null output pointer");
  // A device type the C ABI knows but this core has no allocator for.
  EXPECT_EQ(aoti_torch_empty_strided(1, sizes, nullptr, f32, aoti_torch_device_type_cuda(), 0, &t),
            AOTI_TORCH_FAILURE);
  EXPECT_EQ(t, nullptr);
}

// The (ndim, sizes, strides) triple is read into a fixed 64-dim copy: 64
// dims (contiguous strides computed, or given) work, 65 are refused before
// anything is read.
TEST_F(TensorCreationTest, EmptyStridedDimLimit) {
  std::vector<int64_t> ones(65, 1);
  const int32_t cpu = aoti_torch_device_type_cpu();
  const int32_t f32 = aoti_torch_dtype_float32();
  AtenTensorHandle t = nullptr;
  ASSERT_C_OK(aoti_torch_empty_strided(64, ones.data(), nullptr, f32, cpu, 0, &t));
  int64_t dim = 0;
  ASSERT_C_OK(aoti_torch_get_dim(t, &dim));
  EXPECT_EQ(dim, 64);
  int64_t stride = 0;
  ASSERT_C_OK(aoti_torch_get_stride(t, 0, &stride));
  EXPECT_EQ(stride, 1);
  aoti_torch_delete_tensor_object(t);
  std::vector<int64_t> sizes(64, 1);
  sizes[0] = 3;
  std::vector<int64_t> strides(64, 7);
  ASSERT_C_OK(aoti_torch_empty_strided(64, sizes.data(), strides.data(), f32, cpu, 0, &t));
  ASSERT_C_OK(aoti_torch_get_stride(t, 63, &stride));
  EXPECT_EQ(stride, 7);
  int64_t storage = 0;
  ASSERT_C_OK(aoti_torch_get_storage_size(t, &storage));
  EXPECT_EQ(storage, (2 * 7 + 1) * 4);
  aoti_torch_delete_tensor_object(t);
  t = nullptr;
  EXPECT_C_FAILURE(aoti_torch_empty_strided(65, ones.data(), nullptr, f32, cpu, 0, &t),
                   "aoti_torch_empty_strided", "ndim: expected 0..64 dimensions, got 65");
  EXPECT_EQ(t, nullptr);
}

TEST_F(TensorCreationTest, AsStridedAndReinterpret) {
  AtenTensorHandle base = make_tensor({6});
  const int64_t sizes[] = {2, 2};
  const int64_t strides[] = {2, 1};
  AtenTensorHandle t = nullptr;
  ASSERT_C_OK(aoti_torch__reinterpret_tensor(base, 2, sizes, strides, 2, &t));
  EXPECT_EQ(read_floats(t), (std::vector<float>{2, 3, 4, 5}));
  aoti_torch_delete_tensor_object(t);
  const int64_t s1[] = {3};
  const int64_t st1[] = {2};
  ASSERT_C_OK(aoti_torch_as_strided(base, s1, st1, &t));
  int64_t* st = nullptr;
  aoti_torch_get_strides(t, &st);
  EXPECT_EQ(st[0], 2);
  aoti_torch_delete_tensor_object(t);

  const int64_t big[] = {100};
  EXPECT_EQ(aoti_torch_as_strided(base, big, st1, &t), AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("aoti_torch_as_strided"), std::string::npos);
  EXPECT_C_FAILURE(aoti_torch__reinterpret_tensor(base, 1, s1, st1, 5, &t),
                   "aoti_torch__reinterpret_tensor", "");
  EXPECT_C_FAILURE(aoti_torch_as_strided(nullptr, s1, st1, &t), "aoti_torch_as_strided",
                   "self: null tensor handle");
  EXPECT_C_FAILURE(aoti_torch_as_strided(base, nullptr, st1, &t), "aoti_torch_as_strided",
                   "null pointer");
  EXPECT_C_FAILURE(aoti_torch__reinterpret_tensor(deleted_tensor(), 1, s1, st1, 0, &t),
                   "aoti_torch__reinterpret_tensor", "already deleted");
  EXPECT_C_FAILURE(aoti_torch__reinterpret_tensor(base, 1, s1, st1, 0, nullptr),
                   "aoti_torch__reinterpret_tensor", "null output pointer");
  aoti_torch_delete_tensor_object(base);
}

TEST_F(TensorCreationTest, CreateFromBlobDoesNotOwn) {
  float data[6] = {0, 1, 2, 3, 4, 5};
  const int64_t sizes[] = {2};
  const int64_t strides[] = {2};
  AtenTensorHandle t = nullptr;
  ASSERT_C_OK(aoti_torch_create_tensor_from_blob(
      data, 1, sizes, strides, 1, aoti_torch_dtype_float32(), aoti_torch_device_type_cpu(), 0, &t));
  EXPECT_EQ(read_floats(t).size(), 2u);
  float* p = nullptr;
  aoti_torch_get_data_ptr(t, reinterpret_cast<void**>(&p));
  EXPECT_EQ(p, data + 1);
  int32_t index = 7;
  ASSERT_C_OK(aoti_torch_get_device_index(t, &index));
  EXPECT_EQ(index, -1);  // a CPU tensor reports -1 whatever it was created with
  aoti_torch_delete_tensor_object(t);
  EXPECT_EQ(data[5], 5);  // the blob is untouched and still ours

  ASSERT_C_OK(aoti_torch_create_tensor_from_blob_v2(
      data, 1, sizes, strides, 0, aoti_torch_dtype_float32(), aoti_torch_device_type_cpu(), 0, &t,
      aoti_torch_layout_strided(), nullptr, 0));
  aoti_torch_delete_tensor_object(t);
}

TEST_F(TensorCreationTest, CreateFromBlobBadInput) {
  float data[4] = {};
  const int64_t sizes[] = {4};
  AtenTensorHandle t = nullptr;
  const int32_t cpu = aoti_torch_device_type_cpu();
  const int32_t f32 = aoti_torch_dtype_float32();
  EXPECT_C_FAILURE(
      aoti_torch_create_tensor_from_blob_v2(data, 1, sizes, nullptr, 0, f32, cpu, 0, &t,
                                            aoti_torch_layout_sparse_coo(), nullptr, 0),
      "aoti_torch_create_tensor_from_blob_v2", "only the strided layout");
  EXPECT_C_FAILURE(aoti_torch_create_tensor_from_blob_v2(data, 1, sizes, nullptr, 0, f32, cpu, 0,
                                                         &t, 42, nullptr, 0),
                   "aoti_torch_create_tensor_from_blob_v2", "unknown layout code 42");
  const uint8_t meta[2] = {1, 2};
  EXPECT_C_FAILURE(aoti_torch_create_tensor_from_blob_v2(data, 1, sizes, nullptr, 0, f32, cpu, 0,
                                                         &t, aoti_torch_layout_strided(), meta, 2),
                   "aoti_torch_create_tensor_from_blob_v2", "opaque_metadata");
  EXPECT_C_FAILURE(aoti_torch_create_tensor_from_blob(data, 1, sizes, nullptr, -1, f32, cpu, 0, &t),
                   "aoti_torch_create_tensor_from_blob", "storage_offset");
  EXPECT_C_FAILURE(aoti_torch_create_tensor_from_blob(data, 1, sizes, nullptr, 0, 77, cpu, 0, &t),
                   "aoti_torch_create_tensor_from_blob", "dtype code 77");
  EXPECT_C_FAILURE(
      aoti_torch_create_tensor_from_blob(data, 1, sizes, nullptr, 0, f32, cpu, 0, nullptr),
      "aoti_torch_create_tensor_from_blob", "null output pointer");
}

TEST_F(TensorCreationTest, NullDataAllocates) {
  const int64_t sizes[] = {3};
  AtenTensorHandle t = nullptr;
  ASSERT_C_OK(aoti_torch_create_tensor_from_blob(nullptr, 1, sizes, nullptr, 0,
                                                 aoti_torch_dtype_int32(),
                                                 aoti_torch_device_type_cpu(), -1, &t));
  void* p = nullptr;
  aoti_torch_get_data_ptr(t, &p);
  EXPECT_NE(p, nullptr);
  aoti_torch_delete_tensor_object(t);
}

namespace {
struct DeleterLog {
  void* data = nullptr;
  int calls = 0;
};
void log_deleter(void* data, void* ctx) {
  auto* log = static_cast<DeleterLog*>(ctx);
  log->data = data;
  ++log->calls;
  delete[] static_cast<float*>(data);
}
}  // namespace

TEST_F(TensorCreationTest, TorchFromBlobRunsTheDeleterWithContextOnce) {
  DeleterLog log;
  float* data = new float[4]{1, 2, 3, 4};
  const int64_t sizes[] = {2, 2};
  AtenTensorHandle t = nullptr;
  ASSERT_C_OK(torch_from_blob(data, 2, sizes, nullptr, 0, aoti_torch_dtype_float32(),
                              aoti_torch_device_type_cpu(), 0, &t, aoti_torch_layout_strided(),
                              nullptr, 0, &log_deleter, &log));
  AtenTensorHandle view = nullptr;
  ASSERT_C_OK(aoti_torch_new_tensor_handle(t, &view));
  aoti_torch_delete_tensor_object(t);
  EXPECT_EQ(log.calls, 0);  // a second reference keeps the blob alive
  EXPECT_EQ(read_floats(view), (std::vector<float>{1, 2, 3, 4}));
  aoti_torch_delete_tensor_object(view);
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(log.data, data);
}

TEST_F(TensorCreationTest, TorchFromBlobFailureKeepsOwnershipWithCaller) {
  DeleterLog log;
  float data[4] = {};
  const int64_t sizes[] = {4};
  AtenTensorHandle t = nullptr;
  EXPECT_C_FAILURE(torch_from_blob(data, 1, sizes, nullptr, 0, 99, aoti_torch_device_type_cpu(), 0,
                                   &t, aoti_torch_layout_strided(), nullptr, 0, &log_deleter, &log),
                   "torch_from_blob", "dtype code 99");
  EXPECT_EQ(log.calls, 0);
  // No deleter: caller keeps ownership; null data allocates.
  ASSERT_C_OK(torch_from_blob(nullptr, 1, sizes, nullptr, 0, aoti_torch_dtype_float32(),
                              aoti_torch_device_type_cpu(), 0, &t, aoti_torch_layout_strided(),
                              nullptr, 0, nullptr, nullptr));
  aoti_torch_delete_tensor_object(t);
}

TEST_F(TensorCreationTest, EmptyStridedPinnedFailsWithoutAPinnedAllocator) {
  const int64_t sizes[] = {2, 3};
  AtenTensorHandle out = nullptr;
  EXPECT_C_FAILURE(aoti_torch_empty_strided_pinned(2, sizes, nullptr, aoti_torch_dtype_float32(),
                                                   aoti_torch_device_type_cpu(), 0, &out),
                   "aoti_torch_empty_strided_pinned", "pin_memory=True needs a pinned-memory");
  EXPECT_EQ(out, nullptr);
  EXPECT_C_FAILURE(aoti_torch_empty_strided_pinned(-1, sizes, nullptr, aoti_torch_dtype_float32(),
                                                   aoti_torch_device_type_cpu(), 0, &out),
                   "aoti_torch_empty_strided_pinned", "ndim");
  EXPECT_C_FAILURE(aoti_torch_empty_strided_pinned(2, sizes, nullptr, aoti_torch_dtype_float32(),
                                                   aoti_torch_device_type_cpu(), 0, nullptr),
                   "aoti_torch_empty_strided_pinned", "null output");
}

// A data pointer misaligned for its dtype is refused at creation by all
// three wrappers (kernels store whole elements through it; zero_ on such a
// tensor was a misaligned store), and a refused blob is never owned.
TEST_F(TensorCreationTest, MisalignedBlobIsRefused) {
  alignas(16) unsigned char bytes[64] = {};
  const int64_t sizes[] = {4};
  AtenTensorHandle t = nullptr;
  const int32_t cpu = aoti_torch_device_type_cpu();
  EXPECT_C_FAILURE(aoti_torch_create_tensor_from_blob(bytes + 2, 1, sizes, nullptr, 0,
                                                      aoti_torch_dtype_float32(), cpu, 0, &t),
                   "aoti_torch_create_tensor_from_blob",
                   "is not aligned to the 4-byte alignment of Float elements");
  EXPECT_C_FAILURE(aoti_torch_create_tensor_from_blob_v2(bytes + 4, 1, sizes, nullptr, 0,
                                                         aoti_torch_dtype_int64(), cpu, 0, &t,
                                                         aoti_torch_layout_strided(), nullptr, 0),
                   "aoti_torch_create_tensor_from_blob_v2", "8-byte alignment of Long");
  DeleterLog log;
  EXPECT_C_FAILURE(
      torch_from_blob(bytes + 1, 1, sizes, nullptr, 0, aoti_torch_dtype_int16(), cpu, 0, &t,
                      aoti_torch_layout_strided(), nullptr, 0, &log_deleter, &log),
      "torch_from_blob", "2-byte alignment of Short");
  EXPECT_EQ(log.calls, 0);
  // Aligned, and one-byte elements at any address, are accepted and writable.
  ASSERT_C_OK(aoti_torch_create_tensor_from_blob(bytes + 3, 1, sizes, nullptr, 0,
                                                 aoti_torch_dtype_uint8(), cpu, 0, &t));
  ASSERT_C_OK(aoti_torch_zero_(t));
  aoti_torch_delete_tensor_object(t);
  ASSERT_C_OK(aoti_torch_create_tensor_from_blob(bytes + 8, 1, sizes, nullptr, 0,
                                                 aoti_torch_dtype_int64(), cpu, 0, &t));
  ASSERT_C_OK(aoti_torch_zero_(t));
  aoti_torch_delete_tensor_object(t);
}
