// Metadata getters: values on good tensors, errors on bad handles, bad dims
// and null outputs.
#include "c_api_test_util.h"

#include <vector>

#include <st/core/tensor_impl.h>
#include <st/dispatch/library.h>

using namespace stc_test;

class TensorMetadataTest : public CApiTest {};

TEST_F(TensorMetadataTest, ValuesOfAStridedView) {
  AtenTensorHandle base = make_tensor({2, 3});
  const int64_t sizes[] = {3, 2};
  const int64_t strides[] = {1, 3};
  AtenTensorHandle t = nullptr;
  ASSERT_C_OK(aoti_torch_as_strided(base, sizes, strides, &t));
  int64_t v = 0;
  ASSERT_C_OK(aoti_torch_get_dim(t, &v));
  EXPECT_EQ(v, 2);
  ASSERT_C_OK(aoti_torch_get_numel(t, &v));
  EXPECT_EQ(v, 6);
  ASSERT_C_OK(aoti_torch_get_storage_size(t, &v));
  EXPECT_EQ(v, 24);
  ASSERT_C_OK(aoti_torch_get_storage_numel(t, &v));
  EXPECT_EQ(v, 6);
  ASSERT_C_OK(aoti_torch_get_size(t, -1, &v));
  EXPECT_EQ(v, 2);
  ASSERT_C_OK(aoti_torch_get_stride(t, 1, &v));
  EXPECT_EQ(v, 3);
  ASSERT_C_OK(aoti_torch_get_storage_offset(t, &v));
  EXPECT_EQ(v, 0);
  int64_t* p = nullptr;
  ASSERT_C_OK(aoti_torch_get_sizes(t, &p));
  EXPECT_EQ(p[0], 3);
  EXPECT_EQ(p[1], 2);
  ASSERT_C_OK(aoti_torch_get_strides(t, &p));
  EXPECT_EQ(p[0], 1);
  EXPECT_EQ(p[1], 3);
  int32_t c = 0;
  ASSERT_C_OK(aoti_torch_get_dtype(t, &c));
  EXPECT_EQ(c, aoti_torch_dtype_float32());
  ASSERT_C_OK(aoti_torch_get_device_type(t, &c));
  EXPECT_EQ(c, aoti_torch_device_type_cpu());
  ASSERT_C_OK(aoti_torch_get_device_index(t, &c));
  EXPECT_EQ(c, -1);
  ASSERT_C_OK(aoti_torch_get_layout(t, &c));
  EXPECT_EQ(c, aoti_torch_layout_strided());
  bool b = true;
  ASSERT_C_OK(aoti_torch_is_contiguous(t, &b));
  EXPECT_FALSE(b);
  ASSERT_C_OK(aoti_torch_is_contiguous(base, &b));
  EXPECT_TRUE(b);
  ASSERT_C_OK(aoti_torch_is_defined(t, &b));
  EXPECT_TRUE(b);
  void *d0 = nullptr, *d1 = nullptr, *d2 = nullptr, *d3 = nullptr;
  const void *c0 = nullptr, *c1 = nullptr;
  ASSERT_C_OK(aoti_torch_get_data_ptr(t, &d0));
  ASSERT_C_OK(aoti_torch_get_mutable_data_ptr(t, &d1));
  ASSERT_C_OK(torch_get_mutable_data_ptr(t, &d2));
  ASSERT_C_OK(aoti_torch_get_const_data_ptr(t, &c0));
  ASSERT_C_OK(torch_get_const_data_ptr(t, &c1));
  ASSERT_C_OK(aoti_torch_get_data_ptr(base, &d3));
  EXPECT_EQ(d0, d3);
  EXPECT_EQ(d1, d3);
  EXPECT_EQ(d2, d3);
  EXPECT_EQ(c0, d3);
  EXPECT_EQ(c1, d3);
  aoti_torch_delete_tensor_object(t);
  aoti_torch_delete_tensor_object(base);
}

TEST_F(TensorMetadataTest, OutOfRangeDims) {
  AtenTensorHandle t = make_tensor({2, 3});
  int64_t v = 0;
  EXPECT_C_FAILURE(aoti_torch_get_size(t, 2, &v), "aoti_torch_get_size", "out of range");
  EXPECT_C_FAILURE(aoti_torch_get_stride(t, -3, &v), "aoti_torch_get_stride", "out of range");
  aoti_torch_delete_tensor_object(t);
}

// Every getter: null, foreign and deleted handles, undefined tensors and
// null outputs fail with the function's name.
TEST_F(TensorMetadataTest, EveryGetterRejectsBadInput) {
  AtenTensorHandle good = make_tensor({1});
  AtenTensorHandle undefined = nullptr;
  ASSERT_C_OK(aoti_torch_new_uninitialized_tensor(&undefined));
  const AtenTensorHandle bad[] = {nullptr, foreign<AtenTensorHandle>(), deleted_tensor(),
                                  undefined};
  int64_t i64 = 0;
  int32_t i32 = 0;
  bool b = false;
  void* p = nullptr;
  const void* cp = nullptr;
  int64_t* ip = nullptr;
  for (AtenTensorHandle h : bad) {
    EXPECT_EQ(aoti_torch_get_data_ptr(h, &p), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_mutable_data_ptr(h, &p), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_const_data_ptr(h, &cp), AOTI_TORCH_FAILURE);
    EXPECT_EQ(torch_get_mutable_data_ptr(h, &p), AOTI_TORCH_FAILURE);
    EXPECT_EQ(torch_get_const_data_ptr(h, &cp), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_storage_size(h, &i64), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_dim(h, &i64), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_numel(h, &i64), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_storage_numel(h, &i64), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_sizes(h, &ip), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_size(h, 0, &i64), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_strides(h, &ip), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_stride(h, 0, &i64), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_dtype(h, &i32), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_device_type(h, &i32), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_device_index(h, &i32), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_layout(h, &i32), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_get_storage_offset(h, &i64), AOTI_TORCH_FAILURE);
    EXPECT_EQ(aoti_torch_is_contiguous(h, &b), AOTI_TORCH_FAILURE);
    EXPECT_EQ(torch_set_requires_grad(h, false), AOTI_TORCH_FAILURE);
    if (h != undefined) {
      EXPECT_EQ(aoti_torch_is_defined(h, &b), AOTI_TORCH_FAILURE);
    }
  }
  EXPECT_C_FAILURE(aoti_torch_get_dim(undefined, &i64), "aoti_torch_get_dim",
                   "tensor: the tensor is undefined");
  EXPECT_C_FAILURE(aoti_torch_get_dim(good, nullptr), "aoti_torch_get_dim", "ret_dim: null output");
  EXPECT_C_FAILURE(aoti_torch_get_sizes(good, nullptr), "aoti_torch_get_sizes", "null output");
  EXPECT_C_FAILURE(aoti_torch_is_defined(good, nullptr), "aoti_torch_is_defined", "null output");
  EXPECT_C_FAILURE(torch_get_const_data_ptr(good, nullptr), "torch_get_const_data_ptr",
                   "null output");
  aoti_torch_delete_tensor_object(good);
  aoti_torch_delete_tensor_object(undefined);
}

// The getters' fast path takes handles of the chunk of slots seen last;
// handles of another chunk take the full path. Both read the same values
// and both detect a deleted handle, also once its slot is reused.
TEST_F(TensorMetadataTest, GettersReadHandlesOfEveryChunk) {
  // More handles than one 256 KiB chunk of 64-byte slots holds.
  constexpr int kHandles = 5000;
  AtenTensorHandle base = make_tensor({2, 3});
  std::vector<AtenTensorHandle> handles(kHandles, nullptr);
  for (AtenTensorHandle& h : handles) ASSERT_C_OK(aoti_torch_new_tensor_handle(base, &h));
  for (AtenTensorHandle h : {handles.front(), handles.back(), handles.front()}) {
    int64_t* sizes = nullptr;
    int64_t* strides = nullptr;
    int64_t size = 0;
    int64_t stride = 0;
    ASSERT_C_OK(aoti_torch_get_sizes(h, &sizes));
    ASSERT_C_OK(aoti_torch_get_strides(h, &strides));
    ASSERT_C_OK(aoti_torch_get_size(h, -1, &size));
    ASSERT_C_OK(aoti_torch_get_stride(h, 0, &stride));
    EXPECT_EQ(sizes[0], 2);
    EXPECT_EQ(sizes[1], 3);
    EXPECT_EQ(strides[0], 3);
    EXPECT_EQ(size, 3);
    EXPECT_EQ(stride, 3);
  }
  const AtenTensorHandle first = handles.front();
  const AtenTensorHandle last = handles.back();
  for (AtenTensorHandle h : handles) ASSERT_C_OK(aoti_torch_delete_tensor_object(h));
  // The slots are free again (and the next handle reuses one of them).
  AtenTensorHandle reused = nullptr;
  ASSERT_C_OK(aoti_torch_new_tensor_handle(base, &reused));
  int64_t dim = 0;
  EXPECT_C_FAILURE(aoti_torch_get_dim(first, &dim), "aoti_torch_get_dim", "already deleted");
  EXPECT_C_FAILURE(aoti_torch_get_dim(last, &dim), "aoti_torch_get_dim", "already deleted");
  void* data = nullptr;
  EXPECT_C_FAILURE(aoti_torch_get_data_ptr(last, &data), "aoti_torch_get_data_ptr",
                   "already deleted");
  ASSERT_C_OK(aoti_torch_get_dim(reused, &dim));
  EXPECT_EQ(dim, 2);
  aoti_torch_delete_tensor_object(reused);
  aoti_torch_delete_tensor_object(base);
}

TEST_F(TensorMetadataTest, RequiresGradIsRefusedWithoutAutograd) {
  AtenTensorHandle t = make_tensor({1});
  EXPECT_C_OK(torch_set_requires_grad(t, false));
  EXPECT_C_FAILURE(torch_set_requires_grad(t, true), "torch_set_requires_grad", "no autograd");
  aoti_torch_delete_tensor_object(t);
}

// torch_has_storage: false (not an error) for an undefined tensor and for
// one without storage; true for every tensor the factories and views make.
TEST_F(TensorMetadataTest, HasStorage) {
  bool b = false;
  AtenTensorHandle t = make_tensor({2, 3});
  ASSERT_C_OK(torch_has_storage(t, &b));
  EXPECT_TRUE(b);
  AtenTensorHandle empty = make_tensor({0});
  b = false;
  ASSERT_C_OK(torch_has_storage(empty, &b));
  EXPECT_TRUE(b);
  const int64_t sizes[1] = {3};
  const int64_t strides[1] = {1};
  AtenTensorHandle view = nullptr;
  ASSERT_C_OK(aoti_torch__reinterpret_tensor(t, 1, sizes, strides, 1, &view));
  b = false;
  ASSERT_C_OK(torch_has_storage(view, &b));
  EXPECT_TRUE(b);

  AtenTensorHandle undefined = nullptr;
  ASSERT_C_OK(aoti_torch_new_uninitialized_tensor(&undefined));
  b = true;
  ASSERT_C_OK(torch_has_storage(undefined, &b));
  EXPECT_FALSE(b);

  // A tensor an operator made without storage (as a backend may).
  {
    st::Library lib(st::Library::FRAGMENT, "stc_no_storage", std::nullopt, __FILE__, __LINE__);
    lib.def("bare(Tensor t) -> Tensor", st::dispatch(st::DispatchKey::CPU, [](const st::Tensor&) {
              return st::Tensor(st::make_intrusive<st::TensorImpl>(
                  st::Storage(), st::ScalarType::Float, st::Device(st::DeviceType::CPU)));
            }));
    AtenTensorHandle arg = make_tensor({1});
    StableIValue stack[1] = {from_ptr(arg)};
    ASSERT_C_OK(aoti_torch_call_dispatcher("stc_no_storage::bare", "", stack));
    AtenTensorHandle h = to_ptr<AtenTensorHandle>(stack[0]);
    b = true;
    ASSERT_C_OK(torch_has_storage(h, &b));
    EXPECT_FALSE(b);
    aoti_torch_delete_tensor_object(h);
  }

  EXPECT_C_FAILURE(torch_has_storage(t, nullptr), "torch_has_storage",
                   "ret_has_storage: null output");
  EXPECT_C_FAILURE(torch_has_storage(nullptr, &b), "torch_has_storage", "null tensor handle");
  EXPECT_C_FAILURE(torch_has_storage(foreign<AtenTensorHandle>(), &b), "torch_has_storage",
                   "foreign tensor handle");
  AtenTensorHandle gone = deleted_tensor();
  EXPECT_C_FAILURE(torch_has_storage(gone, &b), "torch_has_storage", "already deleted");
  aoti_torch_delete_tensor_object(view);
  aoti_torch_delete_tensor_object(empty);
  aoti_torch_delete_tensor_object(undefined);
  aoti_torch_delete_tensor_object(t);
}
