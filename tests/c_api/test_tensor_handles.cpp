// Tensor handle lifetime: delete, new_tensor_handle, new_uninitialized,
// assign_tensors(_out).
#include "c_api_test_util.h"

using namespace stc_test;

class TensorHandlesTest : public CApiTest {};

TEST_F(TensorHandlesTest, NewHandleSharesTheTensor) {
  AtenTensorHandle a = make_floats({1, 2, 3});
  AtenTensorHandle b = nullptr;
  ASSERT_C_OK(aoti_torch_new_tensor_handle(a, &b));
  EXPECT_NE(a, b);
  void *pa = nullptr, *pb = nullptr;
  aoti_torch_get_data_ptr(a, &pa);
  aoti_torch_get_data_ptr(b, &pb);
  EXPECT_EQ(pa, pb);
  ASSERT_C_OK(aoti_torch_delete_tensor_object(a));
  EXPECT_EQ(read_floats(b), (std::vector<float>{1, 2, 3}));  // still alive
  ASSERT_C_OK(aoti_torch_delete_tensor_object(b));
}

TEST_F(TensorHandlesTest, NewHandleBadInput) {
  AtenTensorHandle out = nullptr;
  EXPECT_C_FAILURE(aoti_torch_new_tensor_handle(nullptr, &out), "aoti_torch_new_tensor_handle",
                   "orig_handle: null tensor handle");
  EXPECT_C_FAILURE(aoti_torch_new_tensor_handle(deleted_tensor(), &out),
                   "aoti_torch_new_tensor_handle", "already deleted");
  EXPECT_C_FAILURE(aoti_torch_new_tensor_handle(foreign<AtenTensorHandle>(), &out),
                   "aoti_torch_new_tensor_handle", "foreign");
  AtenTensorHandle a = make_tensor({1});
  EXPECT_C_FAILURE(aoti_torch_new_tensor_handle(a, nullptr), "aoti_torch_new_tensor_handle",
                   "new_handle: null output pointer");
  EXPECT_EQ(out, nullptr);  // untouched on failure
  aoti_torch_delete_tensor_object(a);
}

TEST_F(TensorHandlesTest, UninitializedTensorIsUndefined) {
  AtenTensorHandle u = nullptr;
  ASSERT_C_OK(aoti_torch_new_uninitialized_tensor(&u));
  bool defined = true;
  ASSERT_C_OK(aoti_torch_is_defined(u, &defined));
  EXPECT_FALSE(defined);
  int64_t dim = 0;
  EXPECT_C_FAILURE(aoti_torch_get_dim(u, &dim), "aoti_torch_get_dim", "undefined");
  ASSERT_C_OK(aoti_torch_delete_tensor_object(u));
  EXPECT_C_FAILURE(aoti_torch_new_uninitialized_tensor(nullptr),
                   "aoti_torch_new_uninitialized_tensor", "null output pointer");
}

TEST_F(TensorHandlesTest, DeleteNullIsANoOp) {
  EXPECT_C_OK(aoti_torch_delete_tensor_object(nullptr));
}

TEST_F(TensorHandlesTest, DeleteBadHandles) {
  EXPECT_C_FAILURE(aoti_torch_delete_tensor_object(foreign<AtenTensorHandle>()),
                   "aoti_torch_delete_tensor_object", "foreign");
  EXPECT_C_FAILURE(aoti_torch_delete_tensor_object(deleted_tensor()),
                   "aoti_torch_delete_tensor_object", "already deleted");
}

TEST_F(TensorHandlesTest, AssignTensors) {
  AtenTensorHandle src = make_floats({4, 5});
  AtenTensorHandle dst = nullptr;
  ASSERT_C_OK(aoti_torch_new_uninitialized_tensor(&dst));
  ASSERT_C_OK(aoti_torch_assign_tensors(src, dst));
  EXPECT_EQ(read_floats(dst), (std::vector<float>{4, 5}));
  AtenTensorHandle out = nullptr;
  ASSERT_C_OK(aoti_torch_assign_tensors_out(src, &out));
  EXPECT_EQ(read_floats(out), (std::vector<float>{4, 5}));

  EXPECT_C_FAILURE(aoti_torch_assign_tensors(nullptr, dst), "aoti_torch_assign_tensors",
                   "src: null tensor handle");
  EXPECT_C_FAILURE(aoti_torch_assign_tensors(src, deleted_tensor()), "aoti_torch_assign_tensors",
                   "dst: tensor handle");
  EXPECT_C_FAILURE(aoti_torch_assign_tensors_out(foreign<AtenTensorHandle>(), &out),
                   "aoti_torch_assign_tensors_out", "foreign");
  EXPECT_C_FAILURE(aoti_torch_assign_tensors_out(src, nullptr), "aoti_torch_assign_tensors_out",
                   "ret_dst: null output pointer");
  for (AtenTensorHandle h : {src, dst, out}) aoti_torch_delete_tensor_object(h);
}
