// Tests for st::KernelFunction, the boxing adapters and schema inference.
#include <gtest/gtest.h>

#include <st/dispatch/boxing.h>
#include <st/dispatch/dispatcher.h>
#include <st/dispatch/kernel_function.h>

#include "dispatch/dispatch_test_util.h"

namespace st {
namespace {

using testing::tensorOn;

template <typename Sig>
std::string inferred() {
  return inferFunctionSchema<Sig>().signatureString();
}

TEST(InferSchemaTest, EveryParameterType) {
  EXPECT_EQ(inferred<Tensor(const Tensor&, Tensor, int64_t, double, bool)>(),
            "(Tensor _0, Tensor _1, int _2, float _3, bool _4) -> Tensor");
  EXPECT_EQ(inferred<void(std::string, std::string_view, Scalar, Device)>(),
            "(str _0, str _1, Scalar _2, Device _3) -> ()");
  EXPECT_EQ(inferred<void(ScalarType, Layout, MemoryFormat)>(),
            "(ScalarType _0, Layout _1, MemoryFormat _2) -> ()");
  EXPECT_EQ(inferred<void(IntArrayRef, const std::vector<int64_t>&, std::vector<double>,
                          std::array<bool, 3>, std::vector<std::string>)>(),
            "(int[] _0, int[] _1, float[] _2, bool[3] _3, str[] _4) -> ()");
  EXPECT_EQ(inferred<void(const std::optional<Tensor>&, ArrayRef<Tensor>,
                          const std::vector<std::optional<Tensor>>&, std::optional<int64_t>,
                          std::optional<IntArrayRef>, std::optional<Scalar>)>(),
            "(Tensor? _0, Tensor[] _1, Tensor?[] _2, int? _3, int[]? _4, Scalar? _5) -> ()");
  EXPECT_EQ((inferred<std::tuple<Tensor, Tensor>(DispatchKeySet, const Tensor&)>()),
            "(Tensor _0) -> (Tensor, Tensor)");
  EXPECT_EQ(inferred<std::vector<Tensor>()>(), "() -> Tensor[]");
  EXPECT_EQ(inferred<Tensor(const Tensor&, std::optional<Generator>)>(),
            "(Tensor _0, Generator? _1) -> Tensor");
}

struct Counter final : OperatorKernel {
  int64_t base = 100;
  int64_t operator()(const Tensor&, int64_t x) { return base + x; }
};

int64_t plusOne(int64_t x) { return x + 1; }

void boxedDouble(const OperatorHandle&, DispatchKeySet, Stack* s) {
  int64_t x = s->back().toInt();
  s->back() = IValue(2 * x);
}

TEST(KernelFunctionTest, FunctorLambdaFunctionAndBoxed) {
  OperatorHandle op;  // the adapters never look at the handle
  DispatchKeySet ks(DispatchKey::CPU);
  Tensor t = tensorOn(DeviceType::CPU);

  auto f = KernelFunction::makeFromUnboxedFunctor(std::make_shared<Counter>());
  EXPECT_TRUE(f.hasUnboxed());
  EXPECT_EQ((f.call<int64_t, const Tensor&, int64_t>(op, ks, t, 5)), 105);
  Stack s{IValue(t), IValue(7)};
  f.callBoxed(op, ks, &s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].toInt(), 107);

  int64_t captured = 10;
  auto l = KernelFunction::makeFromUnboxedLambda([captured](int64_t x) { return x * captured; });
  EXPECT_EQ((l.call<int64_t, int64_t>(op, ks, 3)), 30);

  auto withKs = KernelFunction::makeFromUnboxedLambda(
      [](DispatchKeySet k, int64_t x) { return x + static_cast<int64_t>(k.highestPriorityKey()); });
  EXPECT_EQ((withKs.call<int64_t, int64_t>(op, ks, 0)), static_cast<int64_t>(DispatchKey::CPU));

  auto fn = KernelFunction::makeFromUnboxedFunction<&plusOne>();
  EXPECT_EQ((fn.call<int64_t, int64_t>(op, ks, 1)), 2);
  auto rt = KernelFunction::makeFromUnboxedRuntimeFunction(&plusOne);
  Stack s2{IValue(4)};
  rt.callBoxed(op, ks, &s2);
  EXPECT_EQ(s2[0].toInt(), 5);

  // Unboxed call of boxed-only kernels: arguments are boxed, returns unboxed.
  auto b = KernelFunction::makeFromBoxedFunction<&boxedDouble>();
  EXPECT_FALSE(b.hasUnboxed());
  EXPECT_EQ((b.call<int64_t, int64_t>(op, ks, 21)), 42);
  auto b2 = KernelFunction::makeFromBoxedFunction(&boxedDouble);
  EXPECT_EQ((b2.call<int64_t, int64_t>(op, ks, 2)), 4);

  EXPECT_FALSE(KernelFunction().isValid());
  EXPECT_TRUE(KernelFunction::makeFallthrough().isFallthrough());
  EXPECT_STREQ(KernelFunction().kindName(), "missing");
  EXPECT_STREQ(b.kindName(), "boxed kernel");
  EXPECT_STREQ(fn.kindName(), "unboxed kernel");
}

TEST(KernelFunctionTest, ArgumentConversionsThroughTheStack) {
  OperatorHandle op;
  auto k = KernelFunction::makeFromUnboxedLambda(
      [](IntArrayRef sizes, std::optional<double> scale,
         const std::vector<std::optional<Tensor>>& ts, std::string_view name,
         std::array<bool, 2> flags, ArrayRef<Tensor> list) {
        return static_cast<int64_t>(sizes.size()) + (scale ? 10 : 0) +
               static_cast<int64_t>(ts.size()) * 100 + static_cast<int64_t>(name.size()) * 1000 +
               (flags[1] ? 10000 : 0) + static_cast<int64_t>(list.size()) * 100000;
      });
  Tensor t = tensorOn(DeviceType::CPU);
  Stack s{IValue(std::vector<int64_t>{1, 2, 3}),   IValue(0.5),
          IValue::makeList({IValue(), IValue(t)}), IValue("ab"),
          IValue(std::vector<bool>{false, true}),  IValue(std::vector<Tensor>{t})};
  k.callBoxed(op, DispatchKeySet(DispatchKey::CPU), &s);
  EXPECT_EQ(s.at(0).toInt(), 3 + 10 + 200 + 2000 + 10000 + 100000);
  // The same through the unboxed-from-boxed direction.
  std::vector<int64_t> sizes{1};
  std::vector<Tensor> list{t, t};
  auto boxedOnly = KernelFunction::makeFromBoxedLambda(
      [&](const OperatorHandle& h, DispatchKeySet ks, Stack* st) { k.callBoxed(h, ks, st); });
  int64_t r = boxedOnly.call<int64_t, IntArrayRef, std::optional<double>,
                             const std::vector<std::optional<Tensor>>&, std::string_view,
                             std::array<bool, 2>, ArrayRef<Tensor>>(
      op, DispatchKeySet(DispatchKey::CPU), IntArrayRef(sizes), std::nullopt, {std::nullopt}, "xyz",
      std::array<bool, 2>{true, false}, ArrayRef<Tensor>(list));
  EXPECT_EQ(r, 1 + 0 + 100 + 3000 + 0 + 200000);
}

}  // namespace
}  // namespace st
