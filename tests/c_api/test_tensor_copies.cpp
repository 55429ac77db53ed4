// copy_, tensor_copy_, clone, clone_preserve_strides, zero_. copy_/clone/
// zero_ go through the dispatcher (aten::copy_, aten::clone, aten::zero_):
// those tests skip until the core registers the operators.
#include "c_api_test_util.h"

using namespace stc_test;

class TensorCopiesTest : public CApiTest {};

TEST_F(TensorCopiesTest, ClonePreserveStridesKeepsGeometry) {
  AtenTensorHandle base = make_tensor({2, 3});
  const int64_t sizes[] = {3, 2};
  const int64_t strides[] = {1, 3};
  AtenTensorHandle t = nullptr;
  ASSERT_C_OK(aoti_torch_as_strided(base, sizes, strides, &t));
  AtenTensorHandle c = nullptr;
  ASSERT_C_OK(aoti_torch_clone_preserve_strides(t, &c));
  int64_t* st = nullptr;
  ASSERT_C_OK(aoti_torch_get_strides(c, &st));
  EXPECT_EQ(st[0], 1);
  EXPECT_EQ(st[1], 3);
  void *pc = nullptr, *pb = nullptr;
  aoti_torch_get_data_ptr(c, &pc);
  aoti_torch_get_data_ptr(base, &pb);
  EXPECT_NE(pc, pb);
  EXPECT_EQ(read_floats(c), read_floats(base));  // same bytes, same extent
  for (AtenTensorHandle h : {base, t, c}) aoti_torch_delete_tensor_object(h);

  AtenTensorHandle e = make_tensor({0, 4});
  ASSERT_C_OK(aoti_torch_clone_preserve_strides(e, &c));
  aoti_torch_delete_tensor_object(c);
  aoti_torch_delete_tensor_object(e);
}

TEST_F(TensorCopiesTest, BadHandles) {
  AtenTensorHandle t = make_tensor({2});
  AtenTensorHandle out = nullptr;
  EXPECT_C_FAILURE(aoti_torch_copy_(nullptr, t, 0), "aoti_torch_copy_", "self: null tensor handle");
  EXPECT_C_FAILURE(aoti_torch_copy_(t, deleted_tensor(), 0), "aoti_torch_copy_",
                   "src: tensor handle");
  EXPECT_C_FAILURE(aoti_torch_tensor_copy_(foreign<AtenTensorHandle>(), t),
                   "aoti_torch_tensor_copy_", "src: foreign");
  EXPECT_C_FAILURE(aoti_torch_clone(nullptr, &out), "aoti_torch_clone", "null tensor handle");
  EXPECT_C_FAILURE(aoti_torch_clone(t, nullptr), "aoti_torch_clone", "null output");
  EXPECT_C_FAILURE(aoti_torch_clone_preserve_strides(deleted_tensor(), &out),
                   "aoti_torch_clone_preserve_strides", "already deleted");
  EXPECT_C_FAILURE(aoti_torch_clone_preserve_strides(t, nullptr),
                   "aoti_torch_clone_preserve_strides", "null output");
  EXPECT_C_FAILURE(aoti_torch_zero_(nullptr), "aoti_torch_zero_", "null tensor handle");
  AtenTensorHandle u = nullptr;
  ASSERT_C_OK(aoti_torch_new_uninitialized_tensor(&u));
  EXPECT_C_FAILURE(aoti_torch_zero_(u), "aoti_torch_zero_", "undefined");
  aoti_torch_delete_tensor_object(u);
  aoti_torch_delete_tensor_object(t);
}

TEST_F(TensorCopiesTest, CopyConvertsAndBroadcasts) {
  if (!has_op("aten::copy_")) GTEST_SKIP() << "aten::copy_ is not registered yet";
  AtenTensorHandle dst = make_tensor({2, 2});
  AtenTensorHandle src = make_tensor({2}, aoti_torch_dtype_int64());  // 0, 1
  ASSERT_C_OK(aoti_torch_copy_(dst, src, 0));
  EXPECT_EQ(read_floats(dst), (std::vector<float>{0, 1, 0, 1}));
  AtenTensorHandle src2 = make_floats({7, 8});      // [2] broadcasts over dst's rows
  ASSERT_C_OK(aoti_torch_tensor_copy_(src2, dst));  // note the order: (src, dst)
  EXPECT_EQ(read_floats(dst), (std::vector<float>{7, 8, 7, 8}));
  AtenTensorHandle four = make_floats({1, 2, 3, 4});  // [4] does not broadcast to [2, 2]
  EXPECT_C_FAILURE(aoti_torch_tensor_copy_(four, dst), "aoti_torch_tensor_copy_",
                   "must match the existing size");
  aoti_torch_delete_tensor_object(four);
  AtenTensorHandle bad = make_tensor({3});
  EXPECT_EQ(aoti_torch_copy_(dst, bad, 0), AOTI_TORCH_FAILURE);
  for (AtenTensorHandle h : {dst, src, src2, bad}) aoti_torch_delete_tensor_object(h);
}

// aten::clone with memory_format=None is Preserve: a dense view keeps its
// strides, a view with gaps comes back contiguous (as in PyTorch).
TEST_F(TensorCopiesTest, ClonePreservesDenseStridesAndCompactsGaps) {
  if (!has_op("aten::clone")) GTEST_SKIP() << "aten::clone is not registered yet";
  AtenTensorHandle base = make_tensor({2, 3});
  const int64_t sizes[] = {3, 2};
  const int64_t strides[] = {1, 3};
  AtenTensorHandle t = nullptr, c = nullptr;
  ASSERT_C_OK(aoti_torch_as_strided(base, sizes, strides, &t));
  ASSERT_C_OK(aoti_torch_clone(t, &c));
  int64_t* cs = nullptr;
  ASSERT_C_OK(aoti_torch_get_strides(c, &cs));
  EXPECT_EQ(cs[0], 1);
  EXPECT_EQ(cs[1], 3);
  EXPECT_EQ(read_floats(c), read_floats(base));  // same layout, same bytes

  const int64_t gap_sizes[] = {2, 2};
  const int64_t gap_strides[] = {3, 2};  // columns 0 and 2 of each row
  AtenTensorHandle g = nullptr, gc = nullptr;
  ASSERT_C_OK(aoti_torch_as_strided(base, gap_sizes, gap_strides, &g));
  ASSERT_C_OK(aoti_torch_clone(g, &gc));
  bool contiguous = false;
  ASSERT_C_OK(aoti_torch_is_contiguous(gc, &contiguous));
  EXPECT_TRUE(contiguous);
  EXPECT_EQ(read_floats(gc), (std::vector<float>{0, 2, 3, 5}));
  for (AtenTensorHandle h : {base, t, c, g, gc}) aoti_torch_delete_tensor_object(h);
}

TEST_F(TensorCopiesTest, ZeroFills) {
  if (!has_op("aten::zero_")) GTEST_SKIP() << "aten::zero_ is not registered yet";
  AtenTensorHandle t = make_floats({1, 2, 3});
  ASSERT_C_OK(aoti_torch_zero_(t));
  EXPECT_EQ(read_floats(t), (std::vector<float>{0, 0, 0}));
  aoti_torch_delete_tensor_object(t);
}
