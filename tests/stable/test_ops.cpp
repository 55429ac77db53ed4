// Every wrapper of ops.h, called inside the sdk_test extension (operator
// sdk_test::w_<wrapper>), against the core's own operator called directly
// with the same arguments: the results must be identical.
#include "stable_test_util.h"

#include <optional>
#include <string>
#include <vector>

namespace stable_test {
namespace {

namespace ts = torch::stable;
using torch::headeronly::DeviceType;
using torch::headeronly::ScalarType;
using ts::detail::from;
using ts::detail::to;

class StableOpsTest : public StableTest {};

const std::optional<ScalarType> kNoDtype;

TEST_F(StableOpsTest, EmptyLikeHasTheShapeAndDtype) {
  const Tensor x = ramp({2, 3}, ScalarType::Double);
  const Tensor ours = call_tensor("sdk_test::w_empty_like", "", {from(x)});
  const Tensor core = call_tensor("aten::empty_like", "", {from(x), 0, 0, 0, 0, 0});
  EXPECT_EQ(sizes(ours), sizes(core));
  EXPECT_EQ(ours.scalar_type(), core.scalar_type());
  EXPECT_NE(ours.data_ptr(), x.data_ptr());
}

TEST_F(StableOpsTest, FillWritesInPlaceAndReturnsSelf) {
  const Tensor x = ramp({2, 2});
  const Tensor r = call_tensor("sdk_test::w_fill_", "", {from(x), from(2.5)});
  EXPECT_EQ(r.data_ptr(), x.data_ptr());
  const Tensor expected = ramp({2, 2});
  (void)call_tensor("aten::fill_", "Scalar", {from(expected), from(ts::Scalar(2.5))});
  EXPECT_TRUE(same_tensor(x, expected));
  // The Scalar overload keeps int64 precision beyond 2^53.
  const Tensor l = ramp({1}, ScalarType::Long);
  const int64_t big = (int64_t{1} << 60) + 1;
  (void)call_tensor("sdk_test::w_fill_int_", "", {from(l), from(big)});
  EXPECT_EQ(l.const_data_ptr<int64_t>()[0], big);
}

TEST_F(StableOpsTest, NarrowTransposeSelectSqueezeUnsqueezeFlatten) {
  const Tensor x = ramp({3, 4, 1});
  auto same = [&](const char* ours, std::vector<StableIValue> a, const char* op,
                  const char* overload, std::vector<StableIValue> b) {
    EXPECT_TRUE(same_tensor(call_tensor(ours, "", std::move(a)), call_tensor(op, overload, std::move(b))))
        << ours;
  };
  same("sdk_test::w_narrow", {from(x), from<int64_t>(1), from<int64_t>(1), from<int64_t>(2)},
       "aten::narrow", "", {from(x), from<int64_t>(1), from<int64_t>(1), from<int64_t>(2)});
  same("sdk_test::w_transpose", {from(x), from<int64_t>(0), from<int64_t>(1)}, "aten::transpose",
       "int", {from(x), from<int64_t>(0), from<int64_t>(1)});
  same("sdk_test::w_select", {from(x), from<int64_t>(1), from<int64_t>(3)}, "aten::select", "int",
       {from(x), from<int64_t>(1), from<int64_t>(3)});
  same("sdk_test::w_squeeze", {from(x), from<int64_t>(2)}, "aten::squeeze", "dim",
       {from(x), from<int64_t>(2)});
  same("sdk_test::w_unsqueeze", {from(x), from<int64_t>(0)}, "aten::unsqueeze", "",
       {from(x), from<int64_t>(0)});
  same("sdk_test::w_flatten", {from(x), from<int64_t>(0), from<int64_t>(1)}, "aten::flatten",
       "using_ints", {from(x), from<int64_t>(0), from<int64_t>(1)});
  // Views share x's memory.
  const Tensor t = call_tensor("sdk_test::w_transpose", "", {from(x), from<int64_t>(0), from<int64_t>(1)});
  EXPECT_EQ(t.data_ptr(), x.data_ptr());
  EXPECT_EQ(sizes(t), (std::vector<int64_t>{4, 3, 1}));
}

TEST_F(StableOpsTest, NewEmptyAndNewZeros) {
  const Tensor x = ramp({2}, ScalarType::Double);
  const std::vector<int64_t> size{3, 2};
  const Tensor e = call_tensor("sdk_test::w_new_empty", "", {from(x), from(size), from(kNoDtype)});
  EXPECT_EQ(sizes(e), size);
  EXPECT_EQ(e.scalar_type(), ScalarType::Double);
  const Tensor z = call_tensor("sdk_test::w_new_zeros", "",
                               {from(x), from(size), from(std::optional<ScalarType>(ScalarType::Long))});
  const Tensor core = call_tensor("aten::new_zeros", "",
                                  {from(x), from(size), from(std::optional<ScalarType>(ScalarType::Long)), 0, 0, 0});
  EXPECT_TRUE(same_tensor(z, core));
  EXPECT_EQ(values(z), std::vector<double>(6, 0.0));
}

TEST_F(StableOpsTest, PadAndAmax) {
  const Tensor x = ramp({2, 3});
  const std::vector<int64_t> p{1, 2};
  EXPECT_TRUE(same_tensor(
      call_tensor("sdk_test::w_pad", "", {from(x), from(p), from(std::string("constant")), from(9.0)}),
      call_tensor("aten::pad", "", {from(x), from(p), from(std::string("constant")), from(std::optional<double>(9.0))})));
  EXPECT_TRUE(same_tensor(
      call_tensor("sdk_test::w_amax", "", {from(x), from<int64_t>(1), from(true)}),
      call_tensor("aten::amax", "", {from(x), from(std::vector<int64_t>{1}), from(true)})));
  const std::vector<int64_t> dims{0, 1};
  EXPECT_TRUE(same_tensor(
      call_tensor("sdk_test::w_amax_dims", "", {from(x), from(dims), from(false)}),
      call_tensor("aten::amax", "", {from(x), from(dims), from(false)})));
}

TEST_F(StableOpsTest, ZeroCopyCloneContiguous) {
  const Tensor x = ramp({2, 3});
  const Tensor z = call_tensor("sdk_test::w_zero_", "", {from(x)});
  EXPECT_EQ(z.data_ptr(), x.data_ptr());
  EXPECT_EQ(values(x), std::vector<double>(6, 0.0));
  const Tensor src = ramp({2, 3});
  const Tensor c = call_tensor("sdk_test::w_copy_", "", {from(x), from(src)});
  EXPECT_EQ(c.data_ptr(), x.data_ptr());
  EXPECT_TRUE(same_tensor(x, src));
  const Tensor cl = call_tensor("sdk_test::w_clone", "", {from(src)});
  EXPECT_NE(cl.data_ptr(), src.data_ptr());
  EXPECT_TRUE(same_tensor(cl, src));
  const Tensor t = ts::transpose(src, 0, 1);
  const Tensor ct = call_tensor("sdk_test::w_contiguous", "", {from(t)});
  EXPECT_TRUE(ct.is_contiguous());
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_TRUE(same_tensor(ct, call_tensor("aten::contiguous", "", {from(t), from(torch::headeronly::MemoryFormat::Contiguous)})));
}

TEST_F(StableOpsTest, Matmul) {
  const Tensor a = ramp({2, 3});
  const Tensor b = ramp({3, 2});
  // An unknown operator leaves the arguments with the caller.
  std::vector<StableIValue> args{from(a), from(b)};
  if (torch_call_dispatcher("aten::matmul", "", args.data(), TORCH_ABI_VERSION) !=
      AOTI_TORCH_SUCCESS) {
    const std::string why = last_error();
    (void)to<Tensor>(args[0]);
    (void)to<Tensor>(args[1]);
    GTEST_SKIP() << "the core has no aten::matmul yet: " << why;
  }
  const Tensor core = to<Tensor>(args[0]);
  EXPECT_TRUE(same_tensor(call_tensor("sdk_test::w_matmul", "", {from(a), from(b)}), core));
}

TEST_F(StableOpsTest, EmptyReshapeViewFromBlob) {
  const std::vector<int64_t> size{2, 5};
  const Tensor e = call_tensor("sdk_test::w_empty", "",
                               {from(size), from(std::optional<ScalarType>(ScalarType::Int)),
                                from(std::optional<ts::Device>(ts::Device(DeviceType::CPU)))});
  EXPECT_EQ(sizes(e), size);
  EXPECT_EQ(e.scalar_type(), ScalarType::Int);
  const Tensor x = ramp({2, 6});
  const std::vector<int64_t> shape{3, -1};
  EXPECT_TRUE(same_tensor(call_tensor("sdk_test::w_reshape", "", {from(x), from(shape)}),
                          call_tensor("aten::reshape", "", {from(x), from(shape)})));
  EXPECT_TRUE(same_tensor(call_tensor("sdk_test::w_view", "", {from(x), from(shape)}),
                          call_tensor("aten::view", "", {from(x), from(shape)})));
  EXPECT_TRUE(same_tensor(call_tensor("sdk_test::w_from_blob", "", {from(x)}), x));
}

TEST_F(StableOpsTest, ToBothOverloads) {
  const Tensor x = ramp({4});
  const std::optional<ScalarType> dt(ScalarType::Double);
  const std::optional<ts::Device> cpu(ts::Device(DeviceType::CPU));
  const Tensor ours = call_tensor("sdk_test::w_to", "", {from(x), from(dt), from(cpu), from(true)});
  const Tensor core = call_tensor("aten::to", "dtype_layout",
                                  {from(x), from(dt), 0, from(cpu), 0, from(false), from(true), 0});
  EXPECT_TRUE(same_tensor(ours, core));
  EXPECT_EQ(ours.scalar_type(), ScalarType::Double);
  const Tensor same_dev = call_tensor("sdk_test::w_to_device", "", {from(x), from(ts::Device(DeviceType::CPU))});
  EXPECT_EQ(same_dev.data_ptr(), x.data_ptr());  // no copy needed
}

TEST_F(StableOpsTest, SumAndSumOut) {
  const Tensor x = ramp({2, 3});
  const std::optional<std::vector<int64_t>> dim(std::vector<int64_t>{1});
  const std::optional<std::vector<int64_t>> none;
  EXPECT_TRUE(same_tensor(
      call_tensor("sdk_test::w_sum", "", {from(x), from(dim), from(true), from(kNoDtype)}),
      call_tensor("aten::sum", "dim_IntList", {from(x), from(dim), from(true), from(kNoDtype)})));
  const Tensor all = call_tensor("sdk_test::w_sum", "",
                                 {from(x), from(none), from(false), from(std::optional<ScalarType>(ScalarType::Double))});
  EXPECT_EQ(all.scalar_type(), ScalarType::Double);
  EXPECT_EQ(values(all), std::vector<double>{1.5});  // sum of -1 .. 1.5 step 0.5
  const Tensor out = ramp({2});
  const Tensor r = call_tensor("sdk_test::w_sum_out", "", {from(out), from(x), from(dim), from(false)});
  EXPECT_EQ(r.data_ptr(), out.data_ptr());
  EXPECT_TRUE(same_tensor(out, call_tensor("aten::sum", "dim_IntList", {from(x), from(dim), from(false), from(kNoDtype)})));
}

TEST_F(StableOpsTest, SubtractAddMulFull) {
  const Tensor a = ramp({3});
  const Tensor b = ramp({3});
  EXPECT_TRUE(same_tensor(
      call_tensor("sdk_test::w_subtract", "", {from(a), from(b), from(2.0)}),
      call_tensor("aten::subtract", "Tensor", {from(a), from(b), from(ts::Scalar(2.0))})));
  EXPECT_TRUE(same_tensor(
      call_tensor("sdk_test::w_add", "", {from(a), from(b), from(0.5)}),
      call_tensor("aten::add", "Tensor", {from(a), from(b), from(ts::Scalar(0.5))})));
  EXPECT_TRUE(same_tensor(call_tensor("sdk_test::w_mul", "", {from(a), from(b)}),
                          call_tensor("aten::mul", "Tensor", {from(a), from(b)})));
  const std::vector<int64_t> size{2, 2};
  EXPECT_TRUE(same_tensor(
      call_tensor("sdk_test::w_full", "", {from(size), from(1.25), from(kNoDtype)}),
      call_tensor("aten::full", "", {from(size), from(ts::Scalar(1.25)), from(kNoDtype), 0, 0, 0})));
  const int64_t big = (int64_t{1} << 62) + 3;
  const Tensor f = call_tensor("sdk_test::w_full_int", "", {from(size), from(big)});
  EXPECT_EQ(f.const_data_ptr<int64_t>()[3], big);
}

TEST_F(StableOpsTest, ParallelForCoversTheRangeOnceAndRethrows) {
  const auto r = call("sdk_test::w_parallel_for", "", {from<int64_t>(100000), from<int64_t>(1000)}, 2);
  EXPECT_EQ(to<int64_t>(r[0]), int64_t{100000} * 99999 / 2);
  EXPECT_TRUE(to<bool>(r[1]));
  try {
    (void)call("sdk_test::w_parallel_for_throws", "", {from<int64_t>(64)}, 1);
    ADD_FAILURE() << "expected a failure";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the chunk holding 63 failed on purpose"),
              std::string::npos) << e.what();
  }
}

TEST_F(StableOpsTest, WrapperErrorsCarryTheCoreMessage) {
  const Tensor x = ramp({2, 3});
  try {
    (void)ts::transpose(x, 0, 5);
    ADD_FAILURE() << "expected a failure";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("aten::transpose"), std::string::npos) << what;
    EXPECT_NE(what.find("torch_call_dispatcher"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace stable_test
