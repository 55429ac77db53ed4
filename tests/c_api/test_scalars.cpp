// item_* and scalar_to_tensor_*.
#include "c_api_test_util.h"

#include <cmath>

using namespace stc_test;

class ScalarsTest : public CApiTest {};

TEST_F(ScalarsTest, RoundTripsThroughZeroDimTensors) {
  AtenTensorHandle t = nullptr;
  ASSERT_C_OK(aoti_torch_scalar_to_tensor_int64(-5, &t));
  int64_t dim = 9;
  ASSERT_C_OK(aoti_torch_get_dim(t, &dim));
  EXPECT_EQ(dim, 0);
  int32_t dtype = 0;
  ASSERT_C_OK(aoti_torch_get_dtype(t, &dtype));
  EXPECT_EQ(dtype, aoti_torch_dtype_int64());
  int64_t i64 = 0;
  ASSERT_C_OK(aoti_torch_item_int64(t, &i64));
  EXPECT_EQ(i64, -5);
  double f64 = 0;
  ASSERT_C_OK(aoti_torch_item_float64(t, &f64));
  EXPECT_EQ(f64, -5.0);
  int8_t i8 = 0;
  ASSERT_C_OK(aoti_torch_item_int8(t, &i8));
  EXPECT_EQ(i8, -5);
  uint8_t u8 = 0;
  ASSERT_C_OK(aoti_torch_item_uint8(t, &u8));  // wraps, as PyTorch
  EXPECT_EQ(u8, 251);
  aoti_torch_delete_tensor_object(t);

  ASSERT_C_OK(aoti_torch_scalar_to_tensor_float32(1.5f, &t));
  float f32 = 0;
  ASSERT_C_OK(aoti_torch_item_float32(t, &f32));
  EXPECT_EQ(f32, 1.5f);
  AOTITorchHalf h;
  ASSERT_C_OK(aoti_torch_item_float16(t, &h));
  EXPECT_EQ(static_cast<float>(h), 1.5f);
  AOTITorchBFloat16 bf;
  ASSERT_C_OK(aoti_torch_item_bfloat16(t, &bf));
  EXPECT_EQ(static_cast<float>(bf), 1.5f);
  bool b = false;
  ASSERT_C_OK(aoti_torch_item_bool(t, &b));
  EXPECT_TRUE(b);
  AOTITorchComplex64 c;
  ASSERT_C_OK(aoti_torch_item_complex64(t, &c));
  EXPECT_EQ(c.real(), 1.5f);
  aoti_torch_delete_tensor_object(t);

  ASSERT_C_OK(aoti_torch_scalar_to_tensor_complex128(AOTITorchComplex128(1.0, 2.0), &t));
  ASSERT_C_OK(aoti_torch_item_complex64(t, &c));
  EXPECT_EQ(c.imag(), 2.0f);
  EXPECT_C_FAILURE(aoti_torch_item_float32(t, &f32), "aoti_torch_item_float32", "");
  aoti_torch_delete_tensor_object(t);

  uint16_t u16 = 0;
  uint32_t u32 = 0;
  uint64_t u64 = 0;
  int16_t i16 = 0;
  int32_t i32 = 0;
  ASSERT_C_OK(aoti_torch_scalar_to_tensor_uint16(65535, &t));
  ASSERT_C_OK(aoti_torch_item_uint16(t, &u16));
  EXPECT_EQ(u16, 65535);
  EXPECT_C_FAILURE(aoti_torch_item_int16(t, &i16), "aoti_torch_item_int16", "overflow");
  aoti_torch_delete_tensor_object(t);
  ASSERT_C_OK(aoti_torch_scalar_to_tensor_uint32(7, &t));
  ASSERT_C_OK(aoti_torch_item_uint32(t, &u32));
  EXPECT_EQ(u32, 7u);
  aoti_torch_delete_tensor_object(t);
  ASSERT_C_OK(aoti_torch_scalar_to_tensor_uint64(8, &t));
  ASSERT_C_OK(aoti_torch_item_uint64(t, &u64));
  EXPECT_EQ(u64, 8u);
  aoti_torch_delete_tensor_object(t);
  ASSERT_C_OK(aoti_torch_scalar_to_tensor_int32(-9, &t));
  ASSERT_C_OK(aoti_torch_item_int32(t, &i32));
  EXPECT_EQ(i32, -9);
  aoti_torch_delete_tensor_object(t);
  ASSERT_C_OK(aoti_torch_scalar_to_tensor_int16(-3, &t));
  ASSERT_C_OK(aoti_torch_item_int16(t, &i16));
  EXPECT_EQ(i16, -3);
  aoti_torch_delete_tensor_object(t);
  ASSERT_C_OK(aoti_torch_scalar_to_tensor_int8(4, &t));
  ASSERT_C_OK(aoti_torch_item_int8(t, &i8));
  EXPECT_EQ(i8, 4);
  aoti_torch_delete_tensor_object(t);
  ASSERT_C_OK(aoti_torch_scalar_to_tensor_uint8(200, &t));
  ASSERT_C_OK(aoti_torch_item_uint8(t, &u8));
  EXPECT_EQ(u8, 200);
  aoti_torch_delete_tensor_object(t);
  ASSERT_C_OK(aoti_torch_scalar_to_tensor_bool(true, &t));
  ASSERT_C_OK(aoti_torch_item_int64(t, &i64));
  EXPECT_EQ(i64, 1);
  aoti_torch_delete_tensor_object(t);
  ASSERT_C_OK(aoti_torch_scalar_to_tensor_float64(0.25, &t));
  ASSERT_C_OK(aoti_torch_item_float64(t, &f64));
  EXPECT_EQ(f64, 0.25);
  aoti_torch_delete_tensor_object(t);
  ASSERT_C_OK(aoti_torch_scalar_to_tensor_complex64(AOTITorchComplex64(3.0f, 0.0f), &t));
  ASSERT_C_OK(aoti_torch_item_float32(t, &f32));  // no imaginary part: converts
  EXPECT_EQ(f32, 3.0f);
  aoti_torch_delete_tensor_object(t);
}

TEST_F(ScalarsTest, BadInput) {
  float f = 0;
  AtenTensorHandle many = make_tensor({3});
  EXPECT_C_FAILURE(aoti_torch_item_float32(many, &f), "aoti_torch_item_float32",
                   "expected a tensor with one element, got 3");
  EXPECT_C_FAILURE(aoti_torch_item_float32(nullptr, &f), "aoti_torch_item_float32",
                   "null tensor handle");
  EXPECT_C_FAILURE(aoti_torch_item_float32(deleted_tensor(), &f), "aoti_torch_item_float32",
                   "already deleted");
  EXPECT_C_FAILURE(aoti_torch_item_float32(many, nullptr), "aoti_torch_item_float32",
                   "null output");
  EXPECT_C_FAILURE(aoti_torch_scalar_to_tensor_float32(1.0f, nullptr),
                   "aoti_torch_scalar_to_tensor_float32", "null output");
  AtenTensorHandle big = nullptr;
  ASSERT_C_OK(aoti_torch_scalar_to_tensor_int64(1000, &big));
  int8_t i8 = 0;
  EXPECT_C_FAILURE(aoti_torch_item_int8(big, &i8), "aoti_torch_item_int8", "overflow");
  aoti_torch_delete_tensor_object(big);
  aoti_torch_delete_tensor_object(many);
}
