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

torch::headeronly::IntHeaderOnlyArrayRef IntRef(const std::vector<int64_t>& v) {
  return torch::headeronly::IntHeaderOnlyArrayRef(v.data(), v.size());
}

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
    EXPECT_TRUE(
        same_tensor(call_tensor(ours, "", std::move(a)), call_tensor(op, overload, std::move(b))))
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
  const Tensor t =
      call_tensor("sdk_test::w_transpose", "", {from(x), from<int64_t>(0), from<int64_t>(1)});
  EXPECT_EQ(t.data_ptr(), x.data_ptr());
  EXPECT_EQ(sizes(t), (std::vector<int64_t>{4, 3, 1}));
}

TEST_F(StableOpsTest, NewEmptyAndNewZeros) {
  const Tensor x = ramp({2}, ScalarType::Double);
  const std::vector<int64_t> size{3, 2};
  const Tensor e = call_tensor("sdk_test::w_new_empty", "", {from(x), from(size), from(kNoDtype)});
  EXPECT_EQ(sizes(e), size);
  EXPECT_EQ(e.scalar_type(), ScalarType::Double);
  const Tensor z =
      call_tensor("sdk_test::w_new_zeros", "",
                  {from(x), from(size), from(std::optional<ScalarType>(ScalarType::Long))});
  const Tensor core = call_tensor(
      "aten::new_zeros", "",
      {from(x), from(size), from(std::optional<ScalarType>(ScalarType::Long)), 0, 0, 0});
  EXPECT_TRUE(same_tensor(z, core));
  EXPECT_EQ(values(z), std::vector<double>(6, 0.0));
}

TEST_F(StableOpsTest, PadAndAmax) {
  const Tensor x = ramp({2, 3});
  const std::vector<int64_t> p{1, 2};
  EXPECT_TRUE(same_tensor(call_tensor("sdk_test::w_pad", "",
                                      {from(x), from(p), from(std::string("constant")), from(9.0)}),
                          call_tensor("aten::pad", "",
                                      {from(x), from(p), from(std::string("constant")),
                                       from(std::optional<double>(9.0))})));
  EXPECT_TRUE(same_tensor(
      call_tensor("sdk_test::w_amax", "", {from(x), from<int64_t>(1), from(true)}),
      call_tensor("aten::amax", "", {from(x), from(std::vector<int64_t>{1}), from(true)})));
  const std::vector<int64_t> dims{0, 1};
  EXPECT_TRUE(
      same_tensor(call_tensor("sdk_test::w_amax_dims", "", {from(x), from(dims), from(false)}),
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
  EXPECT_TRUE(
      same_tensor(ct, call_tensor("aten::contiguous", "",
                                  {from(t), from(torch::headeronly::MemoryFormat::Contiguous)})));
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
  const Tensor same_dev =
      call_tensor("sdk_test::w_to_device", "", {from(x), from(ts::Device(DeviceType::CPU))});
  EXPECT_EQ(same_dev.data_ptr(), x.data_ptr());  // no copy needed
}

TEST_F(StableOpsTest, SumAndSumOut) {
  const Tensor x = ramp({2, 3});
  const std::optional<std::vector<int64_t>> dim(std::vector<int64_t>{1});
  const std::optional<std::vector<int64_t>> none;
  EXPECT_TRUE(same_tensor(
      call_tensor("sdk_test::w_sum", "", {from(x), from(dim), from(true), from(kNoDtype)}),
      call_tensor("aten::sum", "dim_IntList", {from(x), from(dim), from(true), from(kNoDtype)})));
  const Tensor all = call_tensor(
      "sdk_test::w_sum", "",
      {from(x), from(none), from(false), from(std::optional<ScalarType>(ScalarType::Double))});
  EXPECT_EQ(all.scalar_type(), ScalarType::Double);
  EXPECT_EQ(values(all), std::vector<double>{1.5});  // sum of -1 .. 1.5 step 0.5
  const Tensor out = ramp({2});
  const Tensor r =
      call_tensor("sdk_test::w_sum_out", "", {from(out), from(x), from(dim), from(false)});
  EXPECT_EQ(r.data_ptr(), out.data_ptr());
  EXPECT_TRUE(same_tensor(out, call_tensor("aten::sum", "dim_IntList",
                                           {from(x), from(dim), from(false), from(kNoDtype)})));
}

TEST_F(StableOpsTest, SubtractAddMulFull) {
  const Tensor a = ramp({3});
  const Tensor b = ramp({3});
  EXPECT_TRUE(same_tensor(
      call_tensor("sdk_test::w_subtract", "", {from(a), from(b), from(2.0)}),
      call_tensor("aten::subtract", "Tensor", {from(a), from(b), from(ts::Scalar(2.0))})));
  EXPECT_TRUE(
      same_tensor(call_tensor("sdk_test::w_add", "", {from(a), from(b), from(0.5)}),
                  call_tensor("aten::add", "Tensor", {from(a), from(b), from(ts::Scalar(0.5))})));
  EXPECT_TRUE(same_tensor(call_tensor("sdk_test::w_mul", "", {from(a), from(b)}),
                          call_tensor("aten::mul", "Tensor", {from(a), from(b)})));
  const std::vector<int64_t> size{2, 2};
  EXPECT_TRUE(
      same_tensor(call_tensor("sdk_test::w_full", "", {from(size), from(1.25), from(kNoDtype)}),
                  call_tensor("aten::full", "",
                              {from(size), from(ts::Scalar(1.25)), from(kNoDtype), 0, 0, 0})));
  const int64_t big = (int64_t{1} << 62) + 3;
  const Tensor f = call_tensor("sdk_test::w_full_int", "", {from(size), from(big)});
  EXPECT_EQ(f.const_data_ptr<int64_t>()[3], big);
}

TEST_F(StableOpsTest, ParallelForCoversTheRangeOnceAndRethrows) {
  const auto r =
      call("sdk_test::w_parallel_for", "", {from<int64_t>(100000), from<int64_t>(1000)}, 2);
  EXPECT_EQ(to<int64_t>(r[0]), int64_t{100000} * 99999 / 2);
  EXPECT_TRUE(to<bool>(r[1]));
  try {
    (void)call("sdk_test::w_parallel_for_throws", "", {from<int64_t>(64)}, 1);
    ADD_FAILURE() << "expected a failure";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the chunk holding 63 failed on purpose"),
              std::string::npos)
        << e.what();
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

// The 2.10 wrappers below are called directly (the test links the SDK)
// against the core's operator called by name with the same arguments.

TEST_F(StableOpsTest, SumOutReturnsOutByReference) {
  const Tensor x = ramp({2, 3});
  Tensor out = ramp({2});
  const std::vector<int64_t> dim{1};
  Tensor& r = ts::sum_out(out, x, IntRef(dim));
  EXPECT_EQ(&r, &out);
  const std::optional<std::vector<int64_t>> opt_dim(dim);
  EXPECT_TRUE(same_tensor(out, call_tensor("aten::sum", "dim_IntList",
                                           {from(x), from(opt_dim), from(false), from(kNoDtype)})));
}

TEST_F(StableOpsTest, BitwiseOpsMatchTheCore) {
  const Tensor a = make_tensor({4}, {12, 10, 7, -8}, ScalarType::Int);
  const Tensor b = make_tensor({4}, {10, 6, 1, 2}, ScalarType::Int);
  EXPECT_EQ(values(ts::bitwise_and(a, b)), (std::vector<double>{8, 2, 1, 0}));
  EXPECT_TRUE(same_tensor(ts::bitwise_and(a, b),
                          call_tensor("aten::bitwise_and", "Tensor", {from(a), from(b)})));
  EXPECT_EQ(values(ts::bitwise_or(a, b)), (std::vector<double>{14, 14, 7, -6}));
  EXPECT_TRUE(same_tensor(ts::bitwise_or(a, b),
                          call_tensor("aten::bitwise_or", "Tensor", {from(a), from(b)})));
  EXPECT_EQ(values(ts::bitwise_left_shift(a, b)), (std::vector<double>{12288, 640, 14, -32}));
  EXPECT_TRUE(same_tensor(ts::bitwise_left_shift(a, b),
                          call_tensor("aten::bitwise_left_shift", "Tensor", {from(a), from(b)})));
  EXPECT_EQ(values(ts::bitwise_right_shift(a, b)), (std::vector<double>{0, 0, 3, -2}));
  EXPECT_TRUE(same_tensor(ts::bitwise_right_shift(a, b),
                          call_tensor("aten::bitwise_right_shift", "Tensor", {from(a), from(b)})));
  // Floating operands are refused with the core's message.
  EXPECT_THROW((void)ts::bitwise_and(ramp({2}), ramp({2})), std::runtime_error);
}

TEST_F(StableOpsTest, FloorDivideRoundsTowardNegativeInfinity) {
  const Tensor a = make_tensor({4}, {7, -7, 7, -7}, ScalarType::Long);
  const Tensor b = make_tensor({4}, {2, 2, -2, -2}, ScalarType::Long);
  const Tensor r = ts::floor_divide(a, b);
  EXPECT_EQ(values(r), (std::vector<double>{3, -4, -4, 3}));
  EXPECT_TRUE(same_tensor(r, call_tensor("aten::floor_divide", "", {from(a), from(b)})));
}

TEST_F(StableOpsTest, PermuteIsAView) {
  const Tensor x = ramp({2, 3, 4});
  const std::vector<int64_t> dims{2, 0, 1};
  const Tensor p = ts::permute(x, IntRef(dims));
  EXPECT_EQ(sizes(p), (std::vector<int64_t>{4, 2, 3}));
  EXPECT_EQ(p.data_ptr(), x.data_ptr());
  EXPECT_TRUE(same_tensor(p, call_tensor("aten::permute", "", {from(x), from(dims)})));
  const std::vector<int64_t> repeated{0, 0, 1};
  EXPECT_THROW((void)ts::permute(x, IntRef(repeated)), std::runtime_error);
}

TEST_F(StableOpsTest, IndexSelectGathersRows) {
  const Tensor x = ramp({3, 2});
  const Tensor index = make_tensor({2}, {2, 0}, ScalarType::Long);
  const Tensor r = ts::index_select(x, 0, index);
  EXPECT_EQ(sizes(r), (std::vector<int64_t>{2, 2}));
  EXPECT_TRUE(same_tensor(
      r, call_tensor("aten::index_select", "", {from(x), from<int64_t>(0), from(index)})));
  const Tensor bad = make_tensor({1}, {3}, ScalarType::Long);
  EXPECT_THROW((void)ts::index_select(x, 0, bad), std::runtime_error);
}

TEST_F(StableOpsTest, IsPinnedIsFalseForCoreMemory) {
  const Tensor x = ramp({2});
  EXPECT_FALSE(ts::is_pinned(x));
  const auto r = call("aten::is_pinned", "", {from(x), from(std::nullopt)}, 1);
  EXPECT_FALSE(to<bool>(r[0]));
}

TEST_F(StableOpsTest, SortBothOverloads) {
  const Tensor x = make_tensor({5}, {3, 1, 2, 1, 5});
  auto [values_, indices] = ts::sort(x);
  EXPECT_EQ(values(values_), (std::vector<double>{1, 1, 2, 3, 5}));
  const auto core = call("aten::sort", "", {from(x), from<int64_t>(-1), from(false)}, 2);
  EXPECT_TRUE(same_tensor(values_, to<Tensor>(core[0])));
  EXPECT_TRUE(same_tensor(indices, to<Tensor>(core[1])));
  // Stable and descending: equal elements keep their order.
  auto [desc, desc_idx] = ts::sort(x, std::optional<bool>(true), 0, true);
  EXPECT_EQ(values(desc), (std::vector<double>{5, 3, 2, 1, 1}));
  EXPECT_EQ(values(desc_idx), (std::vector<double>{4, 0, 2, 1, 3}));
  const auto core_stable =
      call("aten::sort", "stable",
           {from(x), from(std::optional<bool>(true)), from<int64_t>(0), from(true)}, 2);
  EXPECT_TRUE(same_tensor(desc, to<Tensor>(core_stable[0])));
  EXPECT_TRUE(same_tensor(desc_idx, to<Tensor>(core_stable[1])));
}

TEST_F(StableOpsTest, ViewDtypeReinterpretsTheBytes) {
  const Tensor x = make_tensor({2}, {1.0, -2.0}, ScalarType::Float);
  const Tensor v = ts::view(x, ScalarType::Int);
  EXPECT_EQ(v.scalar_type(), ScalarType::Int);
  EXPECT_EQ(v.data_ptr(), x.data_ptr());
  EXPECT_EQ(v.const_data_ptr<int32_t>()[0], 0x3f800000);
  EXPECT_TRUE(same_tensor(v, call_tensor("aten::view", "dtype", {from(x), from(ScalarType::Int)})));
  EXPECT_EQ(sizes(ts::view(x, ScalarType::Short)), (std::vector<int64_t>{4}));
}

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0
void count_deletion(void* data) { ++*static_cast<int*>(data); }

TEST_F(StableOpsTest, FromBlobCallsItsDeleterOnceWhenTheLastTensorGoes) {
  const std::vector<int64_t> size{1}, stride{1};
  const ts::Device cpu(DeviceType::CPU);
  int plain = 0;
  {
    Tensor t =
        ts::from_blob(&plain, IntRef(size), IntRef(stride), cpu, ScalarType::Int, count_deletion);
    Tensor alias = t;
    t = alias;
    EXPECT_EQ(plain, 0);
  }
  EXPECT_EQ(plain, 1);
  // A capturing lambda: its state lives until the call.
  float data[2] = {1.5f, -2.0f};
  int calls = 0;
  void* seen = nullptr;
  {
    const std::vector<int64_t> two{2};
    Tensor t = ts::from_blob(data, IntRef(two), IntRef(stride), cpu, ScalarType::Float,
                             [&calls, &seen](void* p) {
                               ++calls;
                               seen = p;
                             });
    EXPECT_EQ(values(t), (std::vector<double>{1.5, -2.0}));
  }
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(seen, static_cast<void*>(data));
  // A refused blob never calls the deleter (and the callable is freed).
  const std::vector<int64_t> negative{-1};
  EXPECT_THROW((void)ts::from_blob(data, IntRef(negative), IntRef(stride), cpu, ScalarType::Float,
                                   [&calls](void*) { ++calls; }),
               std::runtime_error);
  EXPECT_EQ(calls, 1);
}
#endif

}  // namespace
}  // namespace stable_test
