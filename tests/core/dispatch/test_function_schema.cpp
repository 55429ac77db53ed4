// Tests for st::FunctionSchema and st::OperatorName: the schema language of
// native_functions.yaml, round trips, alias annotations and parse errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <st/core/error.h>
#include <st/dispatch/function_schema.h>
#include <st/dispatch/operator_name.h>

namespace st {
namespace {

// Real schemas from PyTorch's native_functions.yaml (and TorchScript's
// operator registry), written in canonical form.
const std::vector<std::string>& corpus() {
  static const std::vector<std::string> c = {
      "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
      "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
      "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
      "add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
      "sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
      "mul.Tensor(Tensor self, Tensor other) -> Tensor",
      "div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
      "abs(Tensor self) -> Tensor",
      "abs_(Tensor(a!) self) -> Tensor(a!)",
      "abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
      "sum(Tensor self, *, ScalarType? dtype=None) -> Tensor",
      "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> "
      "Tensor",
      "sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, "
      "Tensor(a!) out) -> Tensor(a!)",
      "mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
      "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      "empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      "empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? "
      "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None) -> Tensor",
      "ones.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)",
      "full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor",
      "arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None, bool non_blocking=False, bool copy=False, MemoryFormat? "
      "memory_format=None) -> Tensor(a)",
      "to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, bool "
      "copy=False, MemoryFormat? memory_format=None) -> Tensor(a)",
      "to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, "
      "MemoryFormat? memory_format=None) -> Tensor(a)",
      "contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)",
      "split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
      "split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]",
      "chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]",
      "unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]",
      "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
      "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) "
      "max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
      "max(Tensor self) -> Tensor",
      "sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
      "sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor "
      "values, Tensor indices)",
      "sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, "
      "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      "topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor "
      "values, Tensor indices)",
      "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
      "index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> "
      "Tensor(a!)",
      "cat(Tensor[] tensors, int dim=0) -> Tensor",
      "stack(Tensor[] tensors, int dim=0) -> Tensor",
      "view(Tensor(a) self, SymInt[] size) -> Tensor(a)",
      "reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)",
      "transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
      "permute(Tensor(a) self, int[] dims) -> Tensor(a)",
      "select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)",
      "slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt "
      "step=1) -> Tensor(a)",
      "expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)",
      "squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)",
      "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] "
      "padding=0, SymInt[2] dilation=1, SymInt groups=1) -> Tensor",
      "conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, str "
      "padding=\"valid\", SymInt[2] dilation=1, SymInt groups=1) -> Tensor",
      "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] "
      "dilation=1, bool ceil_mode=False) -> Tensor",
      "avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool "
      "ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
      "batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? "
      "running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor",
      "native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? "
      "running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
      "layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
      "float eps=1e-05, bool cudnn_enable=True) -> Tensor",
      "dropout(Tensor input, float p, bool train) -> Tensor",
      "bernoulli(Tensor self, *, Generator? generator=None) -> Tensor",
      "normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) -> "
      "Tensor(a!)",
      "randperm(SymInt n, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None) -> Tensor",
      "randint.low(SymInt low, SymInt high, SymInt[] size, *, ScalarType? dtype=long, Layout? "
      "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "gelu(Tensor self, *, str approximate='none') -> Tensor",
      "clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor",
      "clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
      "where.self(Tensor condition, Tensor self, Tensor other) -> Tensor",
      "nonzero(Tensor self) -> Tensor",
      "matmul(Tensor self, Tensor other) -> Tensor",
      "addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
      "linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor",
      "softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
      "nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt "
      "ignore_index=-100) -> Tensor",
      "cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, "
      "SymInt ignore_index=-100, float label_smoothing=0.0) -> Tensor",
      "copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)",
      "fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)",
      "zero_(Tensor(a!) self) -> Tensor(a!)",
      "resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)",
      "_foreach_add.List(Tensor[] self, Tensor[] other, *, Scalar alpha=1) -> Tensor[]",
      "_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()",
      "_foreach_add.List_out(Tensor[] self, Tensor[] other, *, Scalar alpha=1, Tensor(a!)[] out) "
      "-> ()",
      "_amp_foreach_non_finite_check_and_unscale_(Tensor(a!)[] self, Tensor(b!) found_inf, Tensor "
      "inv_scale) -> ()",
      "item(Tensor self) -> Scalar",
      "_local_scalar_dense(Tensor self) -> Scalar",
      "is_nonzero(Tensor self) -> bool",
      "size.int(Tensor self, int dim) -> int",
      "sym_size.int(Tensor self, int dim) -> SymInt",
      "result_type.Tensor(Tensor tensor, Tensor other) -> ScalarType",
      "can_cast(ScalarType from_, ScalarType to) -> bool",
      "promote_types(ScalarType type1, ScalarType type2) -> ScalarType",
      "record_stream(Tensor(a!) self, Stream s) -> ()",
      "set_.source_Storage(Tensor(a!) self, Storage source) -> Tensor(a!)",
      "aten::_assert_async.msg(Tensor self, str assert_msg) -> ()",
      "aten::lstm.input(Tensor input, Tensor[] hx, Tensor[] params, bool has_biases, int "
      "num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, "
      "Tensor, Tensor)",
      "aten::einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor",
      "aten::std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool "
      "keepdim=False) -> Tensor",
      "aten::quantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str "
      "interpolation='linear') -> Tensor",
      "aten::stft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? "
      "window=None, bool normalized=False, bool? onesided=None, bool? return_complex=None) -> "
      "Tensor",
      "aten::_fused_adam_(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] exp_avgs, "
      "Tensor(d!)[] exp_avg_sqs, Tensor(e!)[] max_exp_avg_sqs, Tensor[] state_steps, *, float lr, "
      "float beta1, float beta2, float weight_decay, float eps, bool amsgrad, bool maximize, "
      "Tensor? grad_scale=None, Tensor? found_inf=None) -> ()",
      "aten::_cudnn_rnn_flatten_weight(Tensor[] weight_arr, int weight_stride0, SymInt input_size, "
      "int mode, SymInt hidden_size, SymInt proj_size, int num_layers, bool batch_first, bool "
      "bidirectional) -> Tensor",
      "aten::native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)",
      "aten::bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool "
      "right=False) -> Tensor",
      "aten::upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) "
      "-> Tensor",
      "aten::interpolate(Tensor input, int[]? size=None, float[]? scale_factor=None, str "
      "mode='nearest', bool? align_corners=None) -> Tensor",
      "aten::_test_optional_floatlist(Tensor values, float[]? addends) -> Tensor",
      "aten::rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor",
      "aten::_test_ambiguous_defaults.a(Tensor dummy, int a=1, int b=1) -> Tensor",
      "aten::_test_string_default(Tensor dummy, str a=\"\\\"'\\\\\", str b='\"\\'\\\\') -> Tensor",
      "aten::new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, ScalarType? "
      "dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "aten::_nested_tensor_from_mask_left_aligned(Tensor t, Tensor mask) -> bool",
      "aten::hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor",
      "aten::leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor",
      "aten::isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool "
      "equal_nan=False) -> bool",
      "aten::tensor_split.indices(Tensor(a -> *) self, SymInt[] indices, int dim=0) -> Tensor(a)[]",
      "aten::_make_dual(Tensor(a) primal, Tensor tangent, int level) -> Tensor(a)",
      "aten::_fw_primal(Tensor(a) self, int level) -> Tensor(a)",
      "aten::format(str self, ...) -> str",
      "aten::list(t[] l) -> t[]",
  };
  return c;
}

TEST(FunctionSchemaTest, CorpusRoundTrips) {
  size_t parsed = 0;
  for (const std::string& s : corpus()) {
    if (s.find("t[]") != std::string::npos) continue;  // generic types: not supported
    SCOPED_TRACE(s);
    FunctionSchema schema = FunctionSchema::parse(s);
    EXPECT_EQ(schema.toString(), s);
    FunctionSchema again = FunctionSchema::parse(schema.toString());
    EXPECT_EQ(again, schema);
    ++parsed;
  }
  EXPECT_GE(parsed, 90u);
}

TEST(FunctionSchemaTest, GenericTypeVariablesAreRejected) {
  EXPECT_THROW(FunctionSchema::parse("aten::list(t[] l) -> t[]"), Error);
}

TEST(FunctionSchemaTest, WhitespaceIsNormalised) {
  FunctionSchema s = FunctionSchema::parse(
      "  ns::f.o ( Tensor  self ,int[ 2 ] k = [1, 2] , * , bool b=True)->( Tensor a , Tensor b )");
  EXPECT_EQ(s.toString(),
            "ns::f.o(Tensor self, int[2] k=[1, 2], *, bool b=True) -> (Tensor a, Tensor b)");
}

TEST(FunctionSchemaTest, NameAndOverload) {
  FunctionSchema s = FunctionSchema::parse("aten::add.Tensor(Tensor self) -> Tensor");
  EXPECT_EQ(s.name(), "aten::add");
  EXPECT_EQ(s.overloadName(), "Tensor");
  EXPECT_EQ(s.operatorName().toString(), "aten::add.Tensor");
  FunctionSchema n = FunctionSchema::parse("relu(Tensor self) -> Tensor");
  EXPECT_EQ(n.name(), "relu");
  EXPECT_EQ(n.overloadName(), "");
  EXPECT_TRUE(n.setNamespaceIfNotSet("aten"));
  EXPECT_EQ(n.toString(), "aten::relu(Tensor self) -> Tensor");
  EXPECT_FALSE(n.setNamespaceIfNotSet("other"));
}

TEST(FunctionSchemaTest, Types) {
  FunctionSchema s = FunctionSchema::parse(
      "f(Tensor a, Tensor? b, Tensor[] c, Tensor?[] d, int e, int[] f, int[3] g, SymInt h, "
      "SymInt[] i, float j, float[] k, bool l, bool[3] m, str n, str[] o, Scalar p, "
      "Scalar? q, ScalarType r, Layout s, MemoryFormat t, Device u, Generator? v, int? w, "
      "int[]? x) -> ()");
  const auto& a = s.arguments();
  ASSERT_EQ(a.size(), 24u);
  EXPECT_EQ(a[0].type.kind(), TypeKind::Tensor);
  EXPECT_TRUE(a[1].type.isOptional());
  EXPECT_EQ(a[1].type.elem().kind(), TypeKind::Tensor);
  EXPECT_TRUE(a[2].type.isList());
  EXPECT_FALSE(a[2].type.fixedSize().has_value());
  EXPECT_TRUE(a[3].type.isList());
  EXPECT_TRUE(a[3].type.elem().isOptional());
  EXPECT_TRUE(a[3].type.isTensorLike());
  EXPECT_FALSE(a[4].type.isTensorLike());
  EXPECT_EQ(a[6].type.fixedSize(), 3);
  EXPECT_EQ(a[6].type.elem().kind(), TypeKind::Int);
  EXPECT_EQ(a[7].type.kind(), TypeKind::SymInt);
  EXPECT_EQ(a[12].type.toString(), "bool[3]");
  EXPECT_EQ(a[19].type.kind(), TypeKind::MemoryFormat);
  EXPECT_EQ(a[21].type.toString(), "Generator?");
  EXPECT_EQ(a[23].type.toString(), "int[]?");
  EXPECT_TRUE(s.returns().empty());
}

TEST(FunctionSchemaTest, OptionalOnAnyType) {
  for (const char* t :
       {"Tensor", "int", "SymInt", "float", "bool", "str", "Scalar", "ScalarType", "Layout",
        "MemoryFormat", "Device", "Generator", "int[]", "Tensor[]", "float[2]"}) {
    std::string s = std::string("f(") + t + "? x=None) -> ()";
    SCOPED_TRACE(s);
    FunctionSchema schema = FunctionSchema::parse(s);
    EXPECT_TRUE(schema.arguments()[0].type.isOptional());
    EXPECT_EQ(schema.toString(), s);
  }
}

// Defaults live out of line (OptionalDefault): a copied schema owns its own
// defaults and compares equal; an argument without one has none.
TEST(FunctionSchemaTest, DefaultsAreCopiedDeeply) {
  FunctionSchema original =
      FunctionSchema::parse("f(Tensor a, int[] b=[1, 2], *, str c='x') -> ()");
  FunctionSchema copy = original;
  EXPECT_EQ(copy, original);
  EXPECT_FALSE(copy.arguments()[0].default_value.has_value());
  ASSERT_TRUE(copy.arguments()[1].default_value.has_value());
  EXPECT_NE(&*copy.arguments()[1].default_value, &*original.arguments()[1].default_value);
  EXPECT_EQ(copy.arguments()[1].default_value->ints, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(copy.arguments()[2].default_value->s, "x");
  Argument changed = copy.arguments()[1];
  changed.default_value.reset();
  EXPECT_NE(changed, copy.arguments()[1]);
  EXPECT_EQ(copy.toString(), "f(Tensor a, int[] b=[1, 2], *, str c='x') -> ()");
}

TEST(FunctionSchemaTest, Defaults) {
  FunctionSchema s = FunctionSchema::parse(
      "f(int a=-3, float b=1e-05, float c=0.5, bool d=True, bool e=False, int? g=None, "
      "str h='x', str i=\"y z\", int[] j=[], int[2] k=[1, 2], float[] l=[0.5, 1], "
      "MemoryFormat m=contiguous_format, ScalarType? n=long, int[2] o=1, Layout p=strided, "
      "int q=Mean, bool[3] r=[True, False, True], float s=inf, float t=-inf) -> ()");
  const auto& a = s.arguments();
  using K = DefaultValue::Kind;
  EXPECT_EQ(a[0].default_value->kind, K::Int);
  EXPECT_EQ(a[0].default_value->i, -3);
  EXPECT_EQ(a[1].default_value->kind, K::Float);
  EXPECT_DOUBLE_EQ(a[1].default_value->d, 1e-05);
  EXPECT_DOUBLE_EQ(a[2].default_value->d, 0.5);
  EXPECT_TRUE(a[3].default_value->b);
  EXPECT_FALSE(a[4].default_value->b);
  EXPECT_EQ(a[5].default_value->kind, K::None);
  EXPECT_EQ(a[6].default_value->s, "x");
  EXPECT_EQ(a[7].default_value->s, "y z");
  EXPECT_EQ(a[8].default_value->kind, K::IntList);
  EXPECT_TRUE(a[8].default_value->ints.empty());
  EXPECT_EQ(a[9].default_value->ints, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(a[10].default_value->kind, K::FloatList);
  EXPECT_EQ(a[10].default_value->doubles, (std::vector<double>{0.5, 1.0}));
  EXPECT_EQ(a[11].default_value->kind, K::Enum);
  EXPECT_EQ(a[11].default_value->s, "contiguous_format");
  EXPECT_EQ(a[11].default_value->i, 0);
  EXPECT_EQ(a[12].default_value->i, 4);          // ScalarType::Long
  EXPECT_EQ(a[13].default_value->kind, K::Int);  // int[2] o=1 broadcasts
  EXPECT_EQ(a[14].default_value->s, "strided");
  EXPECT_EQ(a[15].default_value->i, 1);
  EXPECT_EQ(a[16].default_value->kind, K::BoolList);
  EXPECT_EQ(a[16].default_value->bools, (std::vector<bool>{true, false, true}));
  EXPECT_GT(a[17].default_value->d, 1e300);
  EXPECT_LT(a[18].default_value->d, -1e300);
  EXPECT_EQ(s.toString(),
            "f(int a=-3, float b=1e-05, float c=0.5, bool d=True, bool e=False, int? g=None, "
            "str h='x', str i=\"y z\", int[] j=[], int[2] k=[1, 2], float[] l=[0.5, 1], "
            "MemoryFormat m=contiguous_format, ScalarType? n=long, int[2] o=1, Layout "
            "p=strided, int q=Mean, bool[3] r=[True, False, True], float s=inf, float "
            "t=-inf) -> ()");
}

TEST(FunctionSchemaTest, KwargOnly) {
  FunctionSchema s = FunctionSchema::parse(
      "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_FALSE(s.arguments()[0].kwarg_only);
  EXPECT_FALSE(s.arguments()[1].kwarg_only);
  EXPECT_TRUE(s.arguments()[2].kwarg_only);
  EXPECT_TRUE(s.arguments()[3].kwarg_only);
  EXPECT_FALSE(s.arguments()[2].isOut());
  EXPECT_TRUE(s.arguments()[3].isOut());
  EXPECT_TRUE(s.isMutable());
  EXPECT_EQ(s.argumentIndexWithName("alpha"), 2u);
  EXPECT_FALSE(s.argumentIndexWithName("beta").has_value());
}

TEST(FunctionSchemaTest, AliasAnnotations) {
  FunctionSchema s = FunctionSchema::parse(
      "f(Tensor(a) x, Tensor(b!) y, Tensor! z, Tensor(c! -> c|d) w, Tensor(a -> *) v, "
      "Tensor(e!)[] l, Tensor(f)? o, Tensor(*) star, Tensor(g|h) both) -> Tensor(a)[]");
  const auto& a = s.arguments();
  const AliasInfo* x = a[0].type.anyAliasInfo();
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->before_sets, std::vector<std::string>{"a"});
  EXPECT_FALSE(x->is_write);
  EXPECT_TRUE(x->after_sets.empty());
  EXPECT_TRUE(a[1].type.anyAliasInfo()->is_write);
  EXPECT_EQ(a[1].type.anyAliasInfo()->toString(), "(b!)");
  const AliasInfo* z = a[2].type.anyAliasInfo();
  EXPECT_TRUE(z->is_write);
  EXPECT_TRUE(z->before_sets.empty());
  EXPECT_EQ(a[2].type.toString(), "Tensor!");
  const AliasInfo* w = a[3].type.anyAliasInfo();
  EXPECT_TRUE(w->is_write);
  EXPECT_EQ(w->before_sets, std::vector<std::string>{"c"});
  EXPECT_EQ(w->after_sets, (std::vector<std::string>{"c", "d"}));
  EXPECT_EQ(a[4].type.anyAliasInfo()->after_sets, std::vector<std::string>{"*"});
  // On list elements: the alias belongs to the element, not the list.
  EXPECT_TRUE(a[5].type.isList());
  EXPECT_FALSE(a[5].type.aliasInfo().has_value());
  ASSERT_TRUE(a[5].type.elem().aliasInfo().has_value());
  EXPECT_TRUE(a[5].type.elem().aliasInfo()->is_write);
  EXPECT_TRUE(a[6].type.isOptional());
  EXPECT_EQ(a[6].type.elem().aliasInfo()->before_sets, std::vector<std::string>{"f"});
  EXPECT_EQ(a[7].type.anyAliasInfo()->before_sets, std::vector<std::string>{"*"});
  EXPECT_EQ(a[8].type.anyAliasInfo()->before_sets, (std::vector<std::string>{"g", "h"}));
  EXPECT_EQ(s.returns()[0].type.elem().aliasInfo()->before_sets, std::vector<std::string>{"a"});
  EXPECT_EQ(s.toString(),
            "f(Tensor(a) x, Tensor(b!) y, Tensor! z, Tensor(c! -> c|d) w, Tensor(a -> *) v, "
            "Tensor(e!)[] l, Tensor(f)? o, Tensor(*) star, Tensor(g|h) both) -> Tensor(a)[]");
  // Alias annotations take part in equality.
  EXPECT_NE(FunctionSchema::parse("f(Tensor(a) x) -> ()"),
            FunctionSchema::parse("f(Tensor(a!) x) -> ()"));
}

TEST(FunctionSchemaTest, Returns) {
  EXPECT_TRUE(FunctionSchema::parse("f() -> ()").returns().empty());
  auto single = FunctionSchema::parse("f() -> Tensor");
  ASSERT_EQ(single.returns().size(), 1u);
  EXPECT_TRUE(single.returns()[0].name.empty());
  auto tuple = FunctionSchema::parse("f() -> (Tensor, int)");
  ASSERT_EQ(tuple.returns().size(), 2u);
  EXPECT_EQ(tuple.returns()[1].type.kind(), TypeKind::Int);
  auto named = FunctionSchema::parse("f() -> (Tensor values, Tensor indices)");
  EXPECT_EQ(named.returns()[1].name, "indices");
  // A single parenthesised unnamed return prints without parentheses.
  EXPECT_EQ(FunctionSchema::parse("f() -> (Tensor)").toString(), "f() -> Tensor");
  EXPECT_EQ(FunctionSchema::parse("f() -> (Tensor out)").toString(), "f() -> (Tensor out)");
  EXPECT_TRUE(FunctionSchema::parse("f(...) -> ...").isVararg());
}

TEST(FunctionSchemaTest, SchemaOrName) {
  SchemaOrName n = parseSchemaOrName("ns::op.over");
  EXPECT_FALSE(n.schema.has_value());
  EXPECT_EQ(n.name, OperatorName("ns::op", "over"));
  SchemaOrName s = parseSchemaOrName("ns::op.over(Tensor x) -> Tensor");
  ASSERT_TRUE(s.schema.has_value());
  EXPECT_EQ(s.name, OperatorName("ns::op", "over"));
}

std::string parseError(const std::string& s) {
  try {
    FunctionSchema::parse(s);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(FunctionSchemaTest, ParseErrorsNameColumnAndExpectation) {
  EXPECT_EQ(parseError("add(Tensor self Tensor other) -> Tensor"),
            "schema parse error at column 17: expected ',' or ')' after an argument but "
            "found 'Tensor'\n  add(Tensor self Tensor other) -> Tensor\n"
            "                  ^");
  EXPECT_NE(parseError("add(Tensor self) Tensor")
                .find("column 18: expected '->' before the returns but found 'Tensor'"),
            std::string::npos);
  EXPECT_NE(parseError("add(Tensr self) -> Tensor").find("column 5: expected a type"),
            std::string::npos);
  EXPECT_NE(parseError("add(Tensor self) -> Tensor extra more")
                .find("column 34: expected end of schema but found 'more'"),
            std::string::npos);
  EXPECT_NE(parseError("add(Tensor(a self) -> Tensor")
                .find("column 14: expected ')' closing the alias annotation"),
            std::string::npos);
  EXPECT_NE(parseError("f(int x=) -> ()")
                .find("column 9: expected a default value but "
                      "found ')'"),
            std::string::npos);
  EXPECT_NE(parseError("f(int x=None) -> ()").find("default None for non-optional type int"),
            std::string::npos);
  EXPECT_NE(parseError("f(int x=bogus) -> ()").find("column 9"), std::string::npos);
  EXPECT_NE(parseError("f(int[ x) -> ()").find("expected ']' or a list size"), std::string::npos);
  EXPECT_NE(parseError("f(Tensor x, *, *, Tensor y) -> ()").find("'*' may appear only once"),
            std::string::npos);
  EXPECT_NE(parseError("f(Tensor x, Tensor x) -> ()").find("duplicate argument name 'x'"),
            std::string::npos);
  EXPECT_NE(parseError("f(str s='abc) -> ()").find("unterminated string"), std::string::npos);
  EXPECT_NE(parseError("(Tensor x) -> ()").find("column 1: expected an operator name"),
            std::string::npos);
  EXPECT_NE(parseError("f.(Tensor x) -> ()").find("column 3: expected an overload name"),
            std::string::npos);
  EXPECT_NE(parseError("f(Tensor x) ->").find("expected a type but found end of input"),
            std::string::npos);
  EXPECT_NE(parseError("f(Tensor x")
                .find("expected ',' or ')' after an argument but found "
                      "end of input"),
            std::string::npos);
}

TEST(FunctionSchemaTest, DimnameIsRejectedClearly) {
  std::string e =
      parseError("empty.names(int[] size, *, Dimname[]? names, ScalarType? dtype=None) -> Tensor");
  EXPECT_NE(e.find("column 28"), std::string::npos) << e;
  EXPECT_NE(e.find("'Dimname' (named tensors) is not supported"), std::string::npos) << e;
}

TEST(FunctionSchemaTest, HugeListSizeIsAnErrorNotAnOverflow) {
  // Found by tests/fuzz/fuzz_function_schema: the size overflowed int64_t.
  std::string e = parseError("f(Tensor(a!)[4244444444444444444444444444] x) -> ()");
  EXPECT_NE(e.find("list size too large (at most 1048576)"), std::string::npos) << e;
  EXPECT_NE(e.find("column 14"), std::string::npos) << e;
  EXPECT_EQ(FunctionSchema::parse("f(int[1048576] x) -> ()").arguments()[0].type.toString(),
            "int[1048576]");
}

// Numeric defaults outside int64 or double are parse errors naming the
// column, never clamped to the nearest value (strtoll/strtod saturate).
TEST(FunctionSchemaTest, OutOfRangeDefaultsAreErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"f(int x=99999999999999999999999) -> ()",
       "column 9: int default 99999999999999999999999 is out of range for int64 "
       "[-9223372036854775808, 9223372036854775807]"},
      {"f(int x=-9223372036854775809) -> ()",
       "column 9: int default -9223372036854775809 is out of range"},
      {"f(int[] x=[1, 9223372036854775808]) -> ()",
       "column 15: int default 9223372036854775808 is out of range"},
      {"f(float x=1e999) -> ()",
       "column 11: float default 1e999 overflows double (write inf for infinity)"},
      {"f(float x=-1.5e400) -> ()", "column 11: float default -1.5e400 overflows double"},
      {"f(float x=1e-400) -> ()", "column 11: float default 1e-400 underflows double"},
  };
  for (const auto& [schema, expected] : cases) {
    const std::string e = parseError(schema);
    EXPECT_NE(e.find(expected), std::string::npos) << schema << " gave: " << e;
  }
  // The limits themselves, and inf written as such, are fine.
  const auto a = FunctionSchema::parse(
                     "f(int a=9223372036854775807, int b=-9223372036854775808, float "
                     "c=1.7976931348623157e308, "
                     "float d=-inf, float e=2.2250738585072014e-308) -> ()")
                     .arguments();
  EXPECT_EQ(a[0].default_value->i, INT64_MAX);
  EXPECT_EQ(a[1].default_value->i, INT64_MIN);
  EXPECT_EQ(a[2].default_value->d, 1.7976931348623157e308);
  EXPECT_EQ(a[3].default_value->d, -HUGE_VAL);
  EXPECT_EQ(a[4].default_value->d, 2.2250738585072014e-308);
}

TEST(FunctionSchemaTest, KernelDiff) {
  auto declared = FunctionSchema::parse("f(Tensor self, SymInt[] size, int? n) -> Tensor(a)");
  auto same = FunctionSchema::parse("f(Tensor _0, int[] _1, int? _2) -> Tensor");
  EXPECT_EQ(diffKernelSchema(declared, same), "");
  auto wrong = FunctionSchema::parse("f(Tensor _0, float[] _1, int? _2) -> Tensor");
  std::string d = diffKernelSchema(declared, wrong);
  EXPECT_NE(d.find("argument 1 ('size') is SymInt[] in the schema but float[] in the kernel"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("expected: (Tensor self, SymInt[] size, int? n) -> Tensor(a)"),
            std::string::npos);
  auto fewer = FunctionSchema::parse("f(Tensor _0) -> Tensor");
  EXPECT_NE(diffKernelSchema(declared, fewer).find("3 argument(s) but the kernel takes 1"),
            std::string::npos);
  auto rets = FunctionSchema::parse("f(Tensor _0, int[] _1, int? _2) -> (Tensor, Tensor)");
  EXPECT_NE(diffKernelSchema(declared, rets).find("returns 1 value(s) but the kernel returns 2"),
            std::string::npos);
}

TEST(OperatorNameTest, ParseAndPrint) {
  EXPECT_EQ(OperatorName::parse("aten::add.Tensor"), OperatorName("aten::add", "Tensor"));
  EXPECT_EQ(OperatorName::parse("relu"), OperatorName("relu", ""));
  EXPECT_EQ(OperatorName::parse("ns::op").getNamespace(), std::optional<std::string_view>("ns"));
  EXPECT_FALSE(OperatorName::parse("op").getNamespace().has_value());
  EXPECT_EQ(OperatorName("a::b", "c").toString(), "a::b.c");
  EXPECT_EQ(OperatorName("a::b", "").toString(), "a::b");
  EXPECT_THROW(OperatorName::parse("a::"), Error);
  EXPECT_THROW(OperatorName::parse("a::b."), Error);
  EXPECT_THROW(OperatorName::parse("a b"), Error);
  EXPECT_NE(std::hash<OperatorName>()(OperatorName("a::b", "c")),
            std::hash<OperatorName>()(OperatorName("a::b", "d")));
}

}  // namespace
}  // namespace st
