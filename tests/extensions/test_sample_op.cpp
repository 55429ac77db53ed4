// End to end: extensions/sample_op built out of tree against the INSTALLED
// SDK (the test fixtures install this build into a prefix, configure the
// standalone project with find_package(StableTorch) and build it), then
// loaded here; every operator is called and compared with the same
// computation done by the core's own operators. Also: 100 load / call /
// unload cycles leak nothing, and a call after unloading names the reason.
#include <stabletorch/c/loader.h>
#include <stabletorch/c/runtime.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/stableivalue_conversions.h>
#include <torch/csrc/stable/tensor.h>

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <st/core/allocator.h>
#include <st/core/tensor_impl.h>

namespace {

namespace ts = torch::stable;
using torch::headeronly::DeviceType;
using torch::headeronly::ScalarType;
using ts::Scalar;
using ts::Tensor;
using ts::detail::from;
using ts::detail::to;

std::string last_error() { return ts::detail::last_core_error(); }

std::vector<StableIValue> call(const char* op, const char* overload, std::vector<StableIValue> args,
                               size_t n_returns) {
  if (args.size() < n_returns) args.resize(n_returns, 0);
  if (torch_call_dispatcher(op, overload, args.data(), TORCH_ABI_VERSION) != AOTI_TORCH_SUCCESS) {
    throw std::runtime_error(last_error());
  }
  args.resize(n_returns);
  return args;
}
Tensor call_tensor(const char* op, const char* overload, std::vector<StableIValue> args) {
  return to<Tensor>(call(op, overload, std::move(args), 1)[0]);
}

// Core operators used as the reference.
Tensor core_randn(std::vector<int64_t> size, ScalarType dtype = ScalarType::Float) {
  return call_tensor("aten::randn", "",
                     {from(size), from(std::optional<ScalarType>(dtype)), 0, 0, 0});
}
Tensor core_mul_scalar(const Tensor& x, double s) {
  return call_tensor("aten::mul", "Scalar", {from(x), from(Scalar(s))});
}
Tensor core_div(const Tensor& a, const Tensor& b) {
  return call_tensor("aten::div", "Tensor", {from(a), from(b)});
}

std::vector<double> values(const Tensor& t) {
  const Tensor d = ts::contiguous(
      ts::to(t, ScalarType::Double, std::nullopt, std::nullopt, std::nullopt, false, true));
  const double* p = d.const_data_ptr<double>();
  return std::vector<double>(p, p + d.numel());
}

::testing::AssertionResult close(const Tensor& a, const Tensor& b, double tol = 1e-5) {
  if (!a.sizes().equals(b.sizes())) {
    return ::testing::AssertionFailure() << "sizes " << a.sizes() << " vs " << b.sizes();
  }
  if (a.scalar_type() != b.scalar_type()) {
    return ::testing::AssertionFailure()
           << "dtype " << a.scalar_type() << " vs " << b.scalar_type();
  }
  const auto va = values(a);
  const auto vb = values(b);
  for (size_t i = 0; i < va.size(); ++i) {
    if (std::fabs(va[i] - vb[i]) > tol * (1 + std::fabs(vb[i]))) {
      return ::testing::AssertionFailure() << "element " << i << ": " << va[i] << " vs " << vb[i];
    }
  }
  return ::testing::AssertionSuccess();
}

class SampleOpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(stabletorch_live_handle_count(&handles_before_), AOTI_TORCH_SUCCESS);
    tensors_before_ = st::live_tensor_count();
    ASSERT_EQ(stabletorch_load_library(SAMPLE_OP_PLUGIN, &plugin_), AOTI_TORCH_SUCCESS)
        << last_error();
  }
  void TearDown() override {
    if (plugin_ != nullptr) {
      EXPECT_EQ(stabletorch_unload_library(plugin_), AOTI_TORCH_SUCCESS) << last_error();
    }
    int64_t handles = 0;
    ASSERT_EQ(stabletorch_live_handle_count(&handles), AOTI_TORCH_SUCCESS);
    EXPECT_EQ(handles, handles_before_) << "C ABI handles leaked";
    EXPECT_EQ(st::live_tensor_count(), tensors_before_) << "tensors leaked";
  }
  StableTorchPluginHandle plugin_ = nullptr;

 private:
  int64_t handles_before_ = 0;
  int64_t tensors_before_ = 0;
};

TEST_F(SampleOpTest, TheLoadReportListsEveryOperator) {
  int64_t defs = 0;
  int64_t kernels = 0;
  ASSERT_EQ(stabletorch_plugin_counts(plugin_, &defs, &kernels), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(defs, 8);
  EXPECT_GE(kernels, 8);
  const char* report = nullptr;
  ASSERT_EQ(stabletorch_plugin_report(plugin_, &report), AOTI_TORCH_SUCCESS);
  for (const char* op : {"scale_add_clamp", "row_normalize", "scale_", "weighted_sum", "moments",
                         "describe", "cast_to", "masked_fill_value"}) {
    EXPECT_NE(std::string(report).find(std::string("sample_op::") + op), std::string::npos)
        << op << " missing from:\n"
        << report;
  }
}

TEST_F(SampleOpTest, ScaleAddClampMatchesAddThenClamp) {
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    const Tensor x = core_randn({64, 33}, dtype);
    const Tensor y = core_randn({64, 33}, dtype);
    const Tensor ours =
        call_tensor("sample_op::scale_add_clamp", "",
                    {from(x), from(y), from(0.5), from(std::optional<double>(-0.75)),
                     from(std::optional<double>(1.0))});
    const Tensor ref = call_tensor("aten::clamp", "",
                                   {from(ts::add(x, y, 0.5)), from(std::optional<Scalar>(-0.75)),
                                    from(std::optional<Scalar>(1.0))});
    EXPECT_TRUE(close(ours, ref)) << dtype;
    // Without bounds: a plain x + alpha * y.
    const Tensor unbounded =
        call_tensor("sample_op::scale_add_clamp", "",
                    {from(x), from(y), from(2.0), from(std::nullopt), from(std::nullopt)});
    EXPECT_TRUE(close(unbounded, ts::add(x, y, 2.0)));
  }
  // Bad input is refused with the operator's message.
  try {
    (void)call("sample_op::scale_add_clamp", "",
               {from(core_randn({2})), from(core_randn({3})), from(1.0), 0, 0}, 1);
    ADD_FAILURE() << "expected a shape error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("x and y must have one shape"), std::string::npos)
        << e.what();
  }
}

TEST_F(SampleOpTest, RowNormalizeMatchesMeanAndVarianceFromCoreOps) {
  const Tensor x = core_randn({5, 17}, ScalarType::Double);
  const double eps = 1e-5;
  const Tensor ours = call_tensor("sample_op::row_normalize", "", {from(x), from(eps)});
  const std::vector<int64_t> dim{1};
  const Tensor mean =
      call_tensor("aten::mean", "dim",
                  {from(x), from(std::optional<std::vector<int64_t>>(dim)), from(true), 0});
  const Tensor centered = ts::subtract(x, mean);
  const Tensor var = call_tensor("aten::mean", "dim",
                                 {from(ts::mul(centered, centered)),
                                  from(std::optional<std::vector<int64_t>>(dim)), from(true), 0});
  const Tensor denom =
      call_tensor("aten::sqrt", "", {from(ts::add(var, ts::full({1}, eps, ScalarType::Double)))});
  EXPECT_TRUE(close(ours, core_div(centered, denom), 1e-9));
  // Any strides: a transposed input gives the transposed rows' result.
  const Tensor xt = ts::transpose(core_randn({17, 5}, ScalarType::Double), 0, 1);
  EXPECT_TRUE(close(
      call_tensor("sample_op::row_normalize", "", {from(xt), from(eps)}),
      call_tensor("sample_op::row_normalize", "", {from(ts::contiguous(xt)), from(eps)}), 1e-12));
}

TEST_F(SampleOpTest, ScaleInPlaceWritesItsArgument) {
  const Tensor x = core_randn({1000});
  const Tensor ref = core_mul_scalar(x, 2.5);
  const Tensor r = call_tensor("sample_op::scale_", "", {from(x), from(2.5)});
  EXPECT_EQ(r.data_ptr(), x.data_ptr());
  EXPECT_TRUE(close(x, ref));
}

TEST_F(SampleOpTest, WeightedSumMatchesMulAndAdd) {
  const Tensor a = core_randn({3, 4});
  const Tensor b = core_randn({3, 4});
  const Tensor c = core_randn({3, 4});
  const Tensor ours =
      call_tensor("sample_op::weighted_sum", "",
                  {from(std::vector<Tensor>{a, b, c}), from(std::vector<double>{0.5, -2.0, 3.0})});
  const Tensor ref =
      ts::add(ts::add(core_mul_scalar(a, 0.5), core_mul_scalar(b, -2.0)), core_mul_scalar(c, 3.0));
  EXPECT_TRUE(close(ours, ref));
  EXPECT_THROW((void)call("sample_op::weighted_sum", "",
                          {from(std::vector<Tensor>{}), from(std::vector<double>{})}, 1),
               std::runtime_error);
}

TEST_F(SampleOpTest, MomentsMatchMeanAndBiasedVariance) {
  const Tensor x = core_randn({4, 6, 3}, ScalarType::Double);
  for (bool keepdim : {false, true}) {
    const std::vector<int64_t> dims{0, 2};
    const auto r = call("sample_op::moments", "", {from(x), from(dims), from(keepdim)}, 2);
    const Tensor mean = to<Tensor>(r[0]);
    const Tensor var = to<Tensor>(r[1]);
    const auto od = from(std::optional<std::vector<int64_t>>(dims));
    const Tensor ref_mean = call_tensor("aten::mean", "dim", {from(x), od, from(keepdim), 0});
    const Tensor ref_var =
        call_tensor("aten::var", "correction",
                    {from(x), from(std::optional<std::vector<int64_t>>(dims)),
                     from(std::optional<Scalar>(Scalar(int64_t{0}))), from(keepdim)});
    EXPECT_TRUE(close(mean, ref_mean, 1e-12)) << keepdim;
    EXPECT_TRUE(close(var, ref_var, 1e-12)) << keepdim;
  }
}

TEST_F(SampleOpTest, DescribeReturnsAString) {
  const Tensor x = core_randn({4, 5});
  const std::string plain = to<std::string>(
      call("sample_op::describe", "", {from(x), from(std::string("été")), from(false)}, 1)[0]);
  EXPECT_EQ(plain, "été: Float[4, 5]");
  const std::string verbose = to<std::string>(
      call("sample_op::describe", "",
           {from(ts::transpose(x, 0, 1)), from(std::string("t")), from(true)}, 1)[0]);
  EXPECT_EQ(verbose, "t: Float[5, 4] strides=[1, 5] offset=0 device=cpu contiguous=no");
}

TEST_F(SampleOpTest, CastToMatchesTheCoreConversion) {
  const Tensor x = core_randn({3, 3});
  const Tensor ours =
      call_tensor("sample_op::cast_to", "",
                  {from(x), from(ScalarType::Long), from(ts::Device(DeviceType::CPU))});
  const Tensor ref = ts::to(x, ScalarType::Long);
  EXPECT_TRUE(close(ours, ref));
  EXPECT_EQ(ours.scalar_type(), ScalarType::Long);
  // Always a copy.
  const Tensor same =
      call_tensor("sample_op::cast_to", "",
                  {from(x), from(ScalarType::Float), from(ts::Device(DeviceType::CPU))});
  EXPECT_NE(same.data_ptr(), x.data_ptr());
  EXPECT_TRUE(close(same, x));
}

TEST_F(SampleOpTest, MaskedFillValueMatchesMaskedFill) {
  const Tensor x = call_tensor(
      "aten::arange", "",
      {from(Scalar(int64_t{6})), from(std::optional<ScalarType>(ScalarType::Long)), 0, 0, 0});
  const Tensor mask = call_tensor("aten::gt", "Scalar", {from(x), from(Scalar(int64_t{2}))});
  const Tensor ours = call_tensor("sample_op::masked_fill_value", "",
                                  {from(x), from(std::optional<Tensor>(mask)), from(int64_t{-7})});
  EXPECT_TRUE(close(ours, call_tensor("aten::masked_fill", "Scalar",
                                      {from(x), from(mask), from(Scalar(int64_t{-7}))})));
  const Tensor all = call_tensor("sample_op::masked_fill_value", "",
                                 {from(x), from(std::nullopt), from(int64_t{4})});
  EXPECT_EQ(values(all), std::vector<double>(6, 4.0));
}

TEST_F(SampleOpTest, ACallAfterUnloadingSaysTheLibraryWasUnloaded) {
  ASSERT_EQ(stabletorch_unload_library(plugin_), AOTI_TORCH_SUCCESS) << last_error();
  plugin_ = nullptr;
  // The operator is gone, so the arguments stay with the caller.
  std::vector<StableIValue> args{from(core_randn({2})), from(1.0)};
  ASSERT_EQ(torch_call_dispatcher("sample_op::scale_", "", args.data(), TORCH_ABI_VERSION),
            AOTI_TORCH_FAILURE);
  const std::string msg = last_error();
  EXPECT_NE(msg.find("sample_op::scale_"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unloaded"), std::string::npos) << msg;
  (void)to<Tensor>(args[0]);
}

TEST_F(SampleOpTest, HundredUnloadReloadCyclesLeakNothing) {
  ASSERT_EQ(stabletorch_unload_library(plugin_), AOTI_TORCH_SUCCESS) << last_error();
  plugin_ = nullptr;
  const auto bytes_before = st::cpu_allocator_stats().bytes_in_use;
  for (int i = 0; i < 100; ++i) {
    StableTorchPluginHandle p = nullptr;
    ASSERT_EQ(stabletorch_load_library(SAMPLE_OP_PLUGIN, &p), AOTI_TORCH_SUCCESS)
        << i << ": " << last_error();
    {
      const Tensor x = core_randn({8});
      const Tensor r =
          call_tensor("sample_op::scale_add_clamp", "",
                      {from(x), from(x), from(1.0), from(std::nullopt), from(std::nullopt)});
      ASSERT_TRUE(close(r, core_mul_scalar(x, 2.0))) << i;
    }
    ASSERT_EQ(stabletorch_unload_library(p), AOTI_TORCH_SUCCESS) << i << ": " << last_error();
  }
  EXPECT_EQ(st::cpu_allocator_stats().bytes_in_use, bytes_before);
}

}  // namespace
