// The generated glue: schema registrations, kernel registrations, typed
// handles, the C++ API and the boxed path through the dispatcher.
#include <gtest/gtest.h>

#include <st/dispatch/dispatcher.h>
#include <st/generated/functions.h>
#include <st/generated/operators.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;

std::string schema_of(const char* name, const char* overload) {
  return st::Dispatcher::singleton().findSchemaOrThrow(name, overload).schema().toString();
}

TEST(NativeCodegen, SchemasMatchPyTorchText) {
  EXPECT_EQ(schema_of("aten::add", "Tensor"),
            "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(
      schema_of("aten::add", "out"),
      "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_EQ(schema_of("aten::sum", "dim_IntList"),
            "aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? "
            "dtype=None) -> Tensor");
  EXPECT_EQ(schema_of("aten::transpose", "int"),
            "aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)");
  EXPECT_EQ(
      schema_of("aten::max", "dim"),
      "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  EXPECT_EQ(std::string(st::ops::add_Tensor::schema_str),
            "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_STREQ(st::ops::sum_dim_IntList::overload_name, "dim_IntList");
}

TEST(NativeCodegen, EveryOperatorIsRegistered) {
  const auto names = st::Dispatcher::singleton().getAllOpNames();
  size_t aten = 0;
  for (const auto& n : names) aten += n.name.rfind("aten::", 0) == 0 ? 1 : 0;
  EXPECT_GE(aten, 340u);
  for (const char* op : {"empty", "zeros", "copy_", "abs", "exp", "amax", "constant_pad_nd",
                         "linalg_vector_norm", "where", "cumsum"}) {
    bool found = false;
    for (const auto& n : names) found = found || n.name == std::string("aten::") + op;
    EXPECT_TRUE(found) << op;
  }
}

TEST(NativeCodegen, TypedApiAppliesDefaults) {
  Tensor a = make1({1, 2, 3});
  Tensor b = make1({10, 20, 30});
  expect_close(values(st::add(a, b)), {11, 22, 33});
  expect_close(values(st::add(a, b, 2)), {21, 42, 63});
  expect_close(values(st::add(a, 1.5)), {2.5, 3.5, 4.5});
  Tensor out = st::empty({0});
  st::add_out(out, a, b);
  expect_close(values(out), {11, 22, 33});
  st::add_outf(a, b, 3, out);
  expect_close(values(out), {31, 62, 93});
}

TEST(NativeCodegen, BoxedCallsRunTheSameKernels) {
  auto op = st::Dispatcher::singleton().findSchemaOrThrow("aten::mul", "Tensor");
  st::Stack stack;
  stack.emplace_back(make1({1, 2, 3}));
  stack.emplace_back(make1({2, 2, 2}));
  op.callBoxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  expect_close(values(stack[0].toTensor()), {2, 4, 6});
}

TEST(NativeCodegen, FactoriesGoThroughBackendSelect) {
  Tensor t = st::zeros({2, 3});
  EXPECT_EQ(shape(t), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.dtype(), ScalarType::Float);
  auto op = st::Dispatcher::singleton().findSchemaOrThrow("aten::ones", "");
  st::Stack stack;
  stack.emplace_back(std::vector<int64_t>{4});
  stack.emplace_back(ScalarType::Long);
  stack.emplace_back();
  stack.emplace_back();
  stack.emplace_back();
  op.callBoxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0].toTensor().dtype(), ScalarType::Long);
  expect_close(values(stack[0].toTensor()), {1, 1, 1, 1});
}

TEST(NativeCodegen, MethodOnlyOpsAreFreeFunctionsToo) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor v = st::view(a, {3, 2});
  EXPECT_EQ(shape(v), (std::vector<int64_t>{3, 2}));
  EXPECT_TRUE(v.is_alias_of(a));
  Tensor d = st::to(a, ScalarType::Double);
  EXPECT_EQ(d.dtype(), ScalarType::Double);
  EXPECT_TRUE(st::to(a, ScalarType::Float).is_same(a));
}

}  // namespace

namespace {

using namespace st_native_test;

TEST(NativeCodegen, BoxedArgumentsOfEveryKind) {
  auto& d = st::Dispatcher::singleton();
  {
    auto op = d.findSchemaOrThrow("aten::div", "Tensor_mode");
    st::Stack s;
    s.emplace_back(make1({7, -7}, ScalarType::Long));
    s.emplace_back(make1({2, 2}, ScalarType::Long));
    s.emplace_back(std::string("floor"));
    op.callBoxed(&s);
    expect_close(values(s[0].toTensor()), {3, -4});
  }
  {
    auto op = d.findSchemaOrThrow("aten::sum", "dim_IntList");
    st::Stack s;
    s.emplace_back(make({1, 2, 3, 4}, {2, 2}));
    s.emplace_back(std::vector<int64_t>{1});
    s.emplace_back(true);
    s.emplace_back(ScalarType::Double);
    op.callBoxed(&s);
    EXPECT_EQ(s[0].toTensor().dtype(), ScalarType::Double);
    EXPECT_EQ(shape(s[0].toTensor()), (std::vector<int64_t>{2, 1}));
    expect_close(values(s[0].toTensor()), {3, 7});
  }
  {
    auto op = d.findSchemaOrThrow("aten::max", "dim");
    st::Stack s;
    s.emplace_back(make1({1, 9, 3}));
    s.emplace_back(int64_t{0});
    s.emplace_back(false);
    op.callBoxed(&s);
    ASSERT_EQ(s.size(), 2u);
    expect_close(values(s[0].toTensor()), {9});
    expect_close(values(s[1].toTensor()), {1});
  }
  {
    auto op = d.findSchemaOrThrow("aten::clamp", "");
    st::Stack s;
    s.emplace_back(make1({-5, 5}));
    s.emplace_back(Scalar(0));
    s.emplace_back();
    op.callBoxed(&s);
    expect_close(values(s[0].toTensor()), {0, 5});
  }
  {
    auto op = d.findSchemaOrThrow("aten::add", "out");
    Tensor out = st::empty({0});
    st::Stack s;
    s.emplace_back(make1({1}));
    s.emplace_back(make1({2}));
    s.emplace_back(Scalar(1));
    s.emplace_back(out);
    op.callBoxed(&s);
    EXPECT_TRUE(s[0].toTensor().is_same(out));
    expect_close(values(out), {3});
  }
}

TEST(NativeCodegen, UnsupportedDtypeErrorNamesOpAndDtype) {
  EXPECT_NATIVE_ERROR(st::bitwise_and(make1({1}), make1({1})),
                      "\"bitwise_and\" not implemented for 'Float'");
  EXPECT_NATIVE_ERROR(st::exp(st::empty({1}, ScalarType::ComplexHalf)),
                      "not implemented for 'ComplexHalf'");
}

}  // namespace

#ifdef ST_GENERATED_TENSOR_METHODS
// Active once st/core/tensor.h includes st/generated/tensor_methods.h.
namespace {

using namespace st_native_test;

TEST(NativeCodegen, TensorMethods) {
  Tensor a = make1({1, 2});
  expect_close(values(a.add(a, 2).mul(2)), {6, 12});
  expect_close(values(a.sum()), {3});
  EXPECT_EQ(a.to(ScalarType::Double).dtype(), ScalarType::Double);
  Tensor b = a.clone();
  b.add_(1);
  expect_close(values(b), {2, 3});
  expect_close(values(a.view({2, 1}).sum({1}, true)), {1, 2});
}

}  // namespace
#endif
