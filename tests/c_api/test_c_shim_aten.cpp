// The aoti_torch_aten_* fallback shims: each gives the operator's result
// (checked against the values it must produce), decodes optional and list
// arguments by the shims' conventions, and reports bad input by name.
#include <torch/csrc/inductor/aoti_torch/generated/c_shim_aten.h>

#include <cmath>
#include <limits>

#include "c_api_test_util.h"

using namespace stc_test;

namespace {

class CShimAtenTest : public CApiTest {};

std::vector<int64_t> sizes_of(AtenTensorHandle t) {
  int64_t dim = 0;
  int64_t* sizes = nullptr;
  EXPECT_EQ(aoti_torch_get_dim(t, &dim), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(aoti_torch_get_sizes(t, &sizes), AOTI_TORCH_SUCCESS);
  return std::vector<int64_t>(sizes, sizes + dim);
}

int32_t dtype_of(AtenTensorHandle t) {
  int32_t d = -1;
  EXPECT_EQ(aoti_torch_get_dtype(t, &d), AOTI_TORCH_SUCCESS);
  return d;
}

void* data_of(AtenTensorHandle t) {
  void* p = nullptr;
  EXPECT_EQ(aoti_torch_get_data_ptr(t, &p), AOTI_TORCH_SUCCESS);
  return p;
}

}  // namespace

TEST_F(CShimAtenTest, FillWritesEveryElementInPlace) {
  AtenTensorHandle t = make_tensor({2, 3});
  ASSERT_C_OK(aoti_torch_aten_fill__Scalar(t, 2.5));
  EXPECT_EQ(read_floats(t), std::vector<float>(6, 2.5f));
  AtenTensorHandle i = make_tensor({4}, aoti_torch_dtype_int64());
  ASSERT_C_OK(aoti_torch_aten_fill__Scalar(i, -7.0));
  const int64_t* p = static_cast<const int64_t*>(data_of(i));
  for (int k = 0; k < 4; ++k) EXPECT_EQ(p[k], -7);
  EXPECT_C_FAILURE(aoti_torch_aten_fill__Scalar(nullptr, 1.0), "aoti_torch_aten_fill__Scalar",
                   "self: null tensor handle");
  EXPECT_C_FAILURE(aoti_torch_aten_fill__Scalar(deleted_tensor(), 1.0),
                   "aoti_torch_aten_fill__Scalar", "already deleted");
  aoti_torch_delete_tensor_object(i);
  aoti_torch_delete_tensor_object(t);
}

TEST_F(CShimAtenTest, NarrowIsAViewOfTheRange) {
  AtenTensorHandle t = make_tensor({4, 3});  // 0..11
  AtenTensorHandle v = nullptr;
  ASSERT_C_OK(aoti_torch_aten_narrow(t, 0, 1, 2, &v));
  EXPECT_EQ(sizes_of(v), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(data_of(v), static_cast<float*>(data_of(t)) + 3);  // shares storage
  EXPECT_EQ(read_floats(v), (std::vector<float>{3, 4, 5, 6, 7, 8}));
  aoti_torch_delete_tensor_object(v);
  AtenTensorHandle out = nullptr;
  EXPECT_C_FAILURE(aoti_torch_aten_narrow(t, 0, 3, 2, &out), "aoti_torch_aten_narrow", "narrow");
  EXPECT_EQ(out, nullptr);
  EXPECT_C_FAILURE(aoti_torch_aten_narrow(t, 0, 0, 1, nullptr), "aoti_torch_aten_narrow",
                   "null output");
  aoti_torch_delete_tensor_object(t);
}

TEST_F(CShimAtenTest, NewEmptyAndNewZerosTakeSelfsOptionsUnlessGiven) {
  AtenTensorHandle self = make_tensor({1}, aoti_torch_dtype_int64());
  const int64_t size[] = {2, 5};
  AtenTensorHandle e = nullptr;
  ASSERT_C_OK(aoti_torch_aten_new_empty(self, size, 2, nullptr, nullptr, nullptr, 0, nullptr, &e));
  EXPECT_EQ(sizes_of(e), (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(dtype_of(e), aoti_torch_dtype_int64());
  int32_t f64 = aoti_torch_dtype_float64();
  int32_t cpu = aoti_torch_device_type_cpu();
  int32_t strided = aoti_torch_layout_strided();
  int32_t no_pin = 0;
  AtenTensorHandle z = nullptr;
  ASSERT_C_OK(aoti_torch_aten_new_zeros(self, size, 2, &f64, &strided, &cpu, -1, &no_pin, &z));
  EXPECT_EQ(dtype_of(z), f64);
  const double* p = static_cast<const double*>(data_of(z));
  for (int k = 0; k < 10; ++k) EXPECT_EQ(p[k], 0.0);

  AtenTensorHandle out = nullptr;
  int32_t bad = 12345;
  EXPECT_C_FAILURE(
      aoti_torch_aten_new_zeros(self, size, 2, &bad, nullptr, nullptr, 0, nullptr, &out),
      "aoti_torch_aten_new_zeros", "dtype");
  int32_t two = 2;
  EXPECT_C_FAILURE(
      aoti_torch_aten_new_empty(self, size, 2, nullptr, nullptr, nullptr, 0, &two, &out),
      "aoti_torch_aten_new_empty", "pin_memory: expected 0 or 1, got 2");
  EXPECT_C_FAILURE(
      aoti_torch_aten_new_empty(self, nullptr, 2, nullptr, nullptr, nullptr, 0, nullptr, &out),
      "aoti_torch_aten_new_empty", "size: null pointer with length 2");
  EXPECT_C_FAILURE(
      aoti_torch_aten_new_empty(self, size, -1, nullptr, nullptr, nullptr, 0, nullptr, &out),
      "aoti_torch_aten_new_empty", "size: expected a length in [0, 64], got -1");
  EXPECT_EQ(out, nullptr);
  for (AtenTensorHandle h : {self, e, z}) aoti_torch_delete_tensor_object(h);
}

TEST_F(CShimAtenTest, FullDefaultsToFloat32AndHonoursDtype) {
  const int64_t size[] = {3};
  AtenTensorHandle f = nullptr;
  ASSERT_C_OK(aoti_torch_aten_full(size, 1, 1.5, nullptr, nullptr, nullptr, 0, nullptr, &f));
  EXPECT_EQ(dtype_of(f), aoti_torch_dtype_float32());
  EXPECT_EQ(read_floats(f), (std::vector<float>{1.5f, 1.5f, 1.5f}));
  int32_t i32 = aoti_torch_dtype_int32();
  AtenTensorHandle g = nullptr;
  ASSERT_C_OK(aoti_torch_aten_full(nullptr, 0, 4.0, &i32, nullptr, nullptr, 0, nullptr, &g));
  EXPECT_TRUE(sizes_of(g).empty());  // 0-dim
  EXPECT_EQ(*static_cast<const int32_t*>(data_of(g)), 4);
  AtenTensorHandle out = nullptr;
  const int64_t negative[] = {-2};
  EXPECT_C_FAILURE(
      aoti_torch_aten_full(negative, 1, 0.0, nullptr, nullptr, nullptr, 0, nullptr, &out),
      "aoti_torch_aten_full", "negative");
  int32_t bogus_device = 99;
  EXPECT_C_FAILURE(
      aoti_torch_aten_full(size, 1, 0.0, nullptr, nullptr, &bogus_device, 0, nullptr, &out),
      "aoti_torch_aten_full", "device");
  EXPECT_EQ(out, nullptr);
  aoti_torch_delete_tensor_object(g);
  aoti_torch_delete_tensor_object(f);
}

TEST_F(CShimAtenTest, PadConstantAndOtherModes) {
  AtenTensorHandle t = make_floats({1, 2, 3});
  const int64_t pad[] = {1, 2};
  double value = 9.0;
  AtenTensorHandle c = nullptr;
  ASSERT_C_OK(aoti_torch_aten_pad(t, pad, 2, "constant", &value, &c));
  EXPECT_EQ(read_floats(c), (std::vector<float>{9, 1, 2, 3, 9, 9}));
  AtenTensorHandle z = nullptr;
  ASSERT_C_OK(aoti_torch_aten_pad(t, pad, 2, "constant", nullptr, &z));  // value None: 0
  EXPECT_EQ(read_floats(z), (std::vector<float>{0, 1, 2, 3, 0, 0}));
  AtenTensorHandle out = nullptr;
  // The core pads in "constant" mode only so far: the others are a clear
  // error, not a wrong result.
  AtenTensorHandle t2 = make_tensor({1, 3});
  EXPECT_C_FAILURE(aoti_torch_aten_pad(t2, pad, 2, "reflect", nullptr, &out), "aoti_torch_aten_pad",
                   "padding mode \"reflect\" is not implemented");
  EXPECT_C_FAILURE(aoti_torch_aten_pad(t, pad, 2, nullptr, nullptr, &out), "aoti_torch_aten_pad",
                   "mode: null pointer");
  EXPECT_C_FAILURE(aoti_torch_aten_pad(t, pad, 2, "sideways", nullptr, &out), "aoti_torch_aten_pad",
                   "sideways");
  EXPECT_EQ(out, nullptr);
  for (AtenTensorHandle h : {t, c, z, t2}) aoti_torch_delete_tensor_object(h);
}

TEST_F(CShimAtenTest, AmaxOverOneOrSeveralDims) {
  AtenTensorHandle t = make_tensor({2, 3});  // [[0,1,2],[3,4,5]]
  const int64_t d1[] = {1};
  AtenTensorHandle a = nullptr;
  ASSERT_C_OK(aoti_torch_aten_amax(t, d1, 1, 0, &a));
  EXPECT_EQ(read_floats(a), (std::vector<float>{2, 5}));
  AtenTensorHandle k = nullptr;
  ASSERT_C_OK(aoti_torch_aten_amax(t, d1, 1, 1, &k));
  EXPECT_EQ(sizes_of(k), (std::vector<int64_t>{2, 1}));
  AtenTensorHandle all = nullptr;
  ASSERT_C_OK(aoti_torch_aten_amax(t, nullptr, 0, 0, &all));  // dim=[]: every dim
  EXPECT_EQ(read_floats(all), (std::vector<float>{5}));
  AtenTensorHandle out = nullptr;
  const int64_t bad[] = {2};
  EXPECT_C_FAILURE(aoti_torch_aten_amax(t, bad, 1, 0, &out), "aoti_torch_aten_amax", "2");
  EXPECT_EQ(out, nullptr);
  for (AtenTensorHandle h : {t, a, k, all}) aoti_torch_delete_tensor_object(h);
}

TEST_F(CShimAtenTest, SubtractScalesOtherAndBroadcasts) {
  AtenTensorHandle a = make_tensor({2, 2});  // 0 1 2 3
  AtenTensorHandle b = make_floats({1, 10});
  AtenTensorHandle r = nullptr;
  ASSERT_C_OK(aoti_torch_aten_subtract_Tensor(a, b, 0.5, &r));
  EXPECT_EQ(read_floats(r), (std::vector<float>{-0.5f, -4, 1.5f, -2}));
  AtenTensorHandle out = nullptr;
  AtenTensorHandle c = make_floats({1, 2, 3});
  EXPECT_C_FAILURE(aoti_torch_aten_subtract_Tensor(a, c, 1.0, &out),
                   "aoti_torch_aten_subtract_Tensor", "");
  EXPECT_C_FAILURE(aoti_torch_aten_subtract_Tensor(a, foreign<AtenTensorHandle>(), 1.0, &out),
                   "aoti_torch_aten_subtract_Tensor", "other: foreign");
  EXPECT_EQ(out, nullptr);
  for (AtenTensorHandle h : {a, b, c, r}) aoti_torch_delete_tensor_object(h);
}
