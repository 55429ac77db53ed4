// Extension libraries through the C ABI: init (def/impl/fragment), def,
// impl / torch_library_impl as boxed kernels, errors, deregistration.
#include "c_api_test_util.h"

#include <stabletorch/c/library.h>

#include <cstring>
#include <stdexcept>

#include <st/core/empty_tensor.h>
#include <st/core/generator.h>
#include <st/dispatch/dispatcher.h>

using namespace stc_test;

namespace {

// add_one(Tensor t) -> Tensor, written as an extension would: steal the
// argument, leave a new reference in stack[0].
void add_one_kernel(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  if (num_args != 1 || num_outputs != 1) return;
  AtenTensorHandle in = to_ptr<AtenTensorHandle>(stack[0]);
  int64_t n = 0;
  aoti_torch_get_numel(in, &n);
  AtenTensorHandle out = nullptr;
  aoti_torch_empty_strided(1, &n, nullptr, aoti_torch_dtype_float32(), aoti_torch_device_type_cpu(),
                           -1, &out);
  float *src = nullptr, *dst = nullptr;
  aoti_torch_get_data_ptr(in, reinterpret_cast<void**>(&src));
  aoti_torch_get_data_ptr(out, reinterpret_cast<void**>(&dst));
  for (int64_t i = 0; i < n; ++i) dst[i] = src[i] + 1;
  aoti_torch_delete_tensor_object(in);
  stack[0] = from_ptr(out);
}

void throwing_kernel(StableIValue* stack, uint64_t, uint64_t) {
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0]));
  throw std::runtime_error("ext boom");
}

// Leaves a list handle where a Tensor return is expected.
void wrong_return_kernel(StableIValue* stack, uint64_t, uint64_t) {
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0]));
  StableListHandle l = nullptr;
  torch_new_list_reserve_size(0, &l);
  stack[0] = from_ptr(l);
}

// describe(str s, int[] xs, Tensor? t, Scalar a) -> (str, int)
void describe_kernel(StableIValue* stack, uint64_t, uint64_t) {
  StringHandle s = to_ptr<StringHandle>(stack[0]);
  StableListHandle xs = to_ptr<StableListHandle>(stack[1]);
  const char* p = nullptr;
  torch_string_c_str(s, &p);
  std::string text = p;
  size_t n = 0;
  torch_list_size(xs, &n);
  int64_t sum = 0;
  for (size_t i = 0; i < n; ++i) {
    StableIValue v = 0;
    torch_list_get_item(xs, i, &v);
    sum += static_cast<int64_t>(v);
  }
  text += stack[2] == 0 ? ":none" : ":tensor";
  if (stack[2] != 0) {
    StableIValue* slot = to_ptr<StableIValue*>(stack[2]);
    aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(*slot));
    delete slot;
  }
  double a = 0;
  stabletorch_scalar_to_double(to_ptr<StableScalarHandle>(stack[3]), &a);
  stabletorch_delete_scalar(to_ptr<StableScalarHandle>(stack[3]));
  text += ":" + std::to_string(static_cast<int>(a));
  torch_delete_string(s);
  torch_delete_list(xs);
  StringHandle out = nullptr;
  torch_new_string_handle(text.data(), text.size(), &out);
  stack[0] = from_ptr(out);
  stack[1] = static_cast<StableIValue>(sum);
}

}  // namespace

class LibraryTest : public CApiTest {};

TEST_F(LibraryTest, DefImplCallAndDeregister) {
  TorchLibraryHandle def = nullptr, impl = nullptr;
  // The impl may come before the def.
  ASSERT_C_OK(aoti_torch_library_init_impl("stc_ext", "CPU", __FILE__, __LINE__, &impl));
  ASSERT_C_OK(aoti_torch_library_impl(impl, "add_one", &add_one_kernel));
  ASSERT_C_OK(aoti_torch_library_init_def("stc_ext", __FILE__, __LINE__, &def));
  ASSERT_C_OK(aoti_torch_library_def(def, "add_one(Tensor t) -> Tensor"));

  AtenTensorHandle t = make_floats({1, 2});
  StableIValue stack[1] = {from_ptr(t)};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_ext::add_one", "", stack));
  EXPECT_EQ(read_floats(to_ptr<AtenTensorHandle>(stack[0])), (std::vector<float>{2, 3}));
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0]));

  // Through the core's own boxed call as well.
  {
    st::OperatorHandle op = st::Dispatcher::singleton().findSchemaOrThrow("stc_ext::add_one", "");
    const int64_t one = 1;
    st::Tensor x = st::detail::empty_generic(st::IntArrayRef(&one, 1), st::ScalarType::Float,
                                             st::Device(st::DeviceType::CPU));
    x.data_ptr<float>()[0] = 5;
    st::Stack s{st::IValue(x)};
    op.callBoxed(&s);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].toTensor().data_ptr<float>()[0], 6.0f);
  }

  ASSERT_C_OK(aoti_torch_delete_library_object(impl));
  AtenTensorHandle t2 = make_floats({1});
  stack[0] = from_ptr(t2);
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_ext::add_one", "", stack),
                   "aoti_torch_call_dispatcher", "stc_ext::add_one");
  ASSERT_C_OK(aoti_torch_delete_library_object(def));
  stack[0] = 0;
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_ext::add_one", "", stack),
                   "aoti_torch_call_dispatcher", "could not find an operator");
}

TEST_F(LibraryTest, ExtensionExceptionsBecomeErrorsWithOpAndKey) {
  TorchLibraryHandle frag = nullptr, impl = nullptr;
  ASSERT_C_OK(aoti_torch_library_init_fragment("stc_ext2", __FILE__, __LINE__, &frag));
  ASSERT_C_OK(aoti_torch_library_def(frag, "boom(Tensor t) -> Tensor"));
  ASSERT_C_OK(aoti_torch_library_def(frag, "stc_ext2::wrong(Tensor t) -> Tensor"));
  ASSERT_C_OK(aoti_torch_library_init_impl("stc_ext2", "CompositeExplicitAutograd", __FILE__,
                                           __LINE__, &impl));
  ASSERT_C_OK(torch_library_impl(impl, "boom", &throwing_kernel, TORCH_ABI_VERSION));
  ASSERT_C_OK(torch_library_impl(impl, "stc_ext2::wrong", &wrong_return_kernel, TORCH_ABI_VERSION));
  AtenTensorHandle t = make_tensor({1});
  StableIValue stack[1] = {from_ptr(t)};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_ext2::boom", "", stack),
                   "aoti_torch_call_dispatcher", "ext boom");
  const std::string msg = last_error();
  EXPECT_NE(msg.find("stc_ext2::boom"), std::string::npos) << msg;
  EXPECT_NE(msg.find("dispatch key CompositeExplicitAutograd"), std::string::npos) << msg;
  EXPECT_NE(msg.find("called for CPU"), std::string::npos) << msg;
  AtenTensorHandle t2 = make_tensor({1});
  stack[0] = from_ptr(t2);
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_ext2::wrong", "", stack), "stc_ext2::wrong",
                   "return 0: expected Tensor (a tensor handle) but got a list handle");
  ASSERT_C_OK(aoti_torch_delete_library_object(impl));
  ASSERT_C_OK(aoti_torch_delete_library_object(frag));
}

TEST_F(LibraryTest, KernelsSeeStringsListsOptionalsAndScalars) {
  TorchLibraryHandle def = nullptr;
  ASSERT_C_OK(aoti_torch_library_init_def("stc_ext3", __FILE__, __LINE__, &def));
  ASSERT_C_OK(
      aoti_torch_library_def(def, "describe(str s, int[] xs, Tensor? t, Scalar a) -> (str, int)"));
  ASSERT_C_OK(aoti_torch_library_impl(def, "describe", &describe_kernel));  // CompositeImplicit
  StringHandle s = nullptr;
  ASSERT_C_OK(torch_new_string_handle("x", 1, &s));
  StableListHandle xs = nullptr;
  ASSERT_C_OK(torch_new_list_reserve_size(2, &xs));
  torch_list_push_back(xs, 4);
  torch_list_push_back(xs, 5);
  StableScalarHandle a = nullptr;
  ASSERT_C_OK(stabletorch_scalar_from_double(3.0, &a));
  StableIValue stack[4] = {from_ptr(s), from_ptr(xs), 0, from_ptr(a)};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_ext3::describe", "", stack));
  const char* p = nullptr;
  ASSERT_C_OK(torch_string_c_str(to_ptr<StringHandle>(stack[0]), &p));
  EXPECT_STREQ(p, "x:none:3");
  EXPECT_EQ(stack[1], 9u);
  torch_delete_string(to_ptr<StringHandle>(stack[0]));
  ASSERT_C_OK(aoti_torch_delete_library_object(def));
}

TEST_F(LibraryTest, BadInput) {
  TorchLibraryHandle lib = nullptr;
  EXPECT_C_FAILURE(aoti_torch_library_init_def(nullptr, __FILE__, __LINE__, &lib),
                   "aoti_torch_library_init_def", "ns: null namespace");
  EXPECT_C_FAILURE(aoti_torch_library_init_def("bad ns", __FILE__, __LINE__, &lib),
                   "aoti_torch_library_init_def", "must be an identifier");
  EXPECT_C_FAILURE(aoti_torch_library_init_fragment("", __FILE__, __LINE__, &lib),
                   "aoti_torch_library_init_fragment", "empty namespace");
  EXPECT_C_FAILURE(aoti_torch_library_init_impl("stc_bad", "CPUU", __FILE__, __LINE__, &lib),
                   "aoti_torch_library_init_impl", "unknown dispatch key 'CPUU'");
  EXPECT_C_FAILURE(aoti_torch_library_init_impl("stc_bad", nullptr, __FILE__, __LINE__, &lib),
                   "aoti_torch_library_init_impl", "null dispatch key");
  EXPECT_C_FAILURE(aoti_torch_library_init_def("stc_bad", __FILE__, __LINE__, nullptr),
                   "aoti_torch_library_init_def", "null output");
  EXPECT_EQ(lib, nullptr);

  // A key this core has no backend for: accepted, inert.
  TorchLibraryHandle xla = nullptr;
  ASSERT_C_OK(aoti_torch_library_init_impl("stc_bad", "XLA", __FILE__, __LINE__, &xla));
  EXPECT_C_OK(aoti_torch_library_impl(xla, "whatever", &add_one_kernel));
  EXPECT_C_FAILURE(aoti_torch_library_def(xla, "f(Tensor t) -> Tensor"), "aoti_torch_library_def",
                   "");
  ASSERT_C_OK(aoti_torch_delete_library_object(xla));

  TorchLibraryHandle def = nullptr, def2 = nullptr, impl = nullptr;
  ASSERT_C_OK(aoti_torch_library_init_def("stc_bad", "first.cpp", 1, &def));
  EXPECT_C_FAILURE(aoti_torch_library_init_def("stc_bad", "second.cpp", 2, &def2),
                   "aoti_torch_library_init_def", "first.cpp:1");
  EXPECT_NE(last_error().find("second.cpp:2"), std::string::npos);
  EXPECT_C_FAILURE(aoti_torch_library_def(def, "f(Tensor t -> Tensor"), "aoti_torch_library_def",
                   "schema parse error");
  EXPECT_C_FAILURE(aoti_torch_library_def(def, "other::f(Tensor t) -> Tensor"),
                   "aoti_torch_library_def", "namespace");
  EXPECT_C_FAILURE(aoti_torch_library_def(def, nullptr), "aoti_torch_library_def", "null schema");
  EXPECT_C_FAILURE(aoti_torch_library_impl(def, "f", nullptr), "aoti_torch_library_impl",
                   "null kernel");
  EXPECT_C_FAILURE(aoti_torch_library_impl(def, nullptr, &add_one_kernel),
                   "aoti_torch_library_impl", "null operator name");
  ASSERT_C_OK(aoti_torch_library_init_impl("stc_bad", "CPU", __FILE__, __LINE__, &impl));
  EXPECT_C_FAILURE(aoti_torch_library_impl(impl, "other::f", &add_one_kernel),
                   "aoti_torch_library_impl", "namespace");
  EXPECT_C_FAILURE(torch_library_impl(nullptr, "f", &add_one_kernel, TORCH_ABI_VERSION),
                   "torch_library_impl", "null library handle");
  EXPECT_C_FAILURE(aoti_torch_library_def(foreign<TorchLibraryHandle>(), "f() -> ()"),
                   "aoti_torch_library_def", "foreign library handle");
  ASSERT_C_OK(aoti_torch_delete_library_object(impl));
  EXPECT_C_FAILURE(aoti_torch_library_impl(impl, "f", &add_one_kernel), "aoti_torch_library_impl",
                   "already deleted");
  EXPECT_C_FAILURE(aoti_torch_delete_library_object(impl), "aoti_torch_delete_library_object",
                   "already deleted");
  ASSERT_C_OK(aoti_torch_delete_library_object(def));
  EXPECT_C_OK(aoti_torch_delete_library_object(nullptr));
  // After the DEF library is gone the namespace can be defined again.
  ASSERT_C_OK(aoti_torch_library_init_def("stc_bad", __FILE__, __LINE__, &def));
  ASSERT_C_OK(aoti_torch_delete_library_object(def));
}

namespace {
// pair() -> (int, int): more returns than arguments.
void pair_kernel(StableIValue* stack, uint64_t num_args, uint64_t num_outputs) {
  if (num_args != 0 || num_outputs != 2) return;
  stack[0] = 1;
  stack[1] = 2;
}
// gen(Generator? g) -> int: the device type of g (an optional slot
// holding a generator handle, both owned by the kernel), -1 for None.
void generator_kernel(StableIValue* stack, uint64_t, uint64_t) {
  auto* slot = reinterpret_cast<StableIValue*>(static_cast<uintptr_t>(stack[0]));
  int64_t result = -1;
  if (slot != nullptr) {
    auto g = reinterpret_cast<AtenGeneratorHandle>(static_cast<uintptr_t>(*slot));
    int32_t type = -1, index = 0;
    if (torch_generator_get_device(g, &type, &index) == AOTI_TORCH_SUCCESS) result = type;
    torch_delete_generator(g);
    delete slot;
  }
  stack[0] = static_cast<StableIValue>(result);
}
}  // namespace

TEST_F(LibraryTest, MoreReturnsThanArgumentsAndGeneratorArguments) {
  TorchLibraryHandle def = nullptr;
  ASSERT_C_OK(aoti_torch_library_init_def("stc_ext4", __FILE__, __LINE__, &def));
  ASSERT_C_OK(aoti_torch_library_def(def, "pair() -> (int, int)"));
  ASSERT_C_OK(aoti_torch_library_def(def, "gen(Generator? g) -> int"));
  ASSERT_C_OK(aoti_torch_library_impl(def, "pair", &pair_kernel));
  ASSERT_C_OK(aoti_torch_library_impl(def, "gen", &generator_kernel));
  StableIValue stack[2] = {0, 0};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_ext4::pair", "", stack));
  EXPECT_EQ(stack[0], 1u);
  EXPECT_EQ(stack[1], 2u);
  // The core passes a generator to the extension kernel as a handle the
  // kernel owns.
  st::OperatorHandle op = st::Dispatcher::singleton().findSchemaOrThrow("stc_ext4::gen", "");
  st::Stack s{st::IValue(st::make_cpu_generator())};
  op.callBoxed(&s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].toInt(), static_cast<int64_t>(torch::headeronly::DeviceType::CPU));
  st::Stack none{st::IValue()};
  op.callBoxed(&none);
  EXPECT_EQ(none[0].toInt(), -1);
  ASSERT_C_OK(aoti_torch_delete_library_object(def));
}

// stabletorch_library_impl_with_signature: the kernel's C++ signature is
// checked against the schema whichever comes first, and every differing
// position is listed.
TEST_F(LibraryTest, KernelSignatureIsCheckedAgainstTheSchema) {
  TorchLibraryHandle def = nullptr, impl = nullptr;
  ASSERT_C_OK(aoti_torch_library_init_def("stc_sig", __FILE__, __LINE__, &def));
  ASSERT_C_OK(aoti_torch_library_def(def, "add_one(Tensor t) -> Tensor"));
  ASSERT_C_OK(aoti_torch_library_def(def, "two(Tensor t, int n, float? x) -> (Tensor, int)"));
  ASSERT_C_OK(aoti_torch_library_init_impl("stc_sig", "CPU", __FILE__, __LINE__, &impl));
  // Matching: registered and callable.
  ASSERT_C_OK(stabletorch_library_impl_with_signature(impl, "add_one", &add_one_kernel,
                                                      TORCH_ABI_VERSION, "(Tensor _0) -> Tensor"));
  AtenTensorHandle t = make_floats({1});
  StableIValue stack[1] = {from_ptr(t)};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_sig::add_one", "", stack));
  EXPECT_EQ(read_floats(to_ptr<AtenTensorHandle>(stack[0])), (std::vector<float>{2}));
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0]));
  // Mismatching in two arguments and one return: refused, all listed.
  EXPECT_EQ(
      stabletorch_library_impl_with_signature(impl, "two", &add_one_kernel, TORCH_ABI_VERSION,
                                              "(Tensor _0, float _1, int? _2) -> (Tensor, float)"),
      AOTI_TORCH_FAILURE);
  const std::string msg = last_error();
  EXPECT_NE(msg.find("stabletorch_library_impl_with_signature"), std::string::npos) << msg;
  EXPECT_NE(msg.find("argument 1 ('n') is int in the schema but float in the kernel"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("argument 2 ('x') is float? in the schema but int? in the kernel"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("return 1 is int in the schema but float in the kernel"), std::string::npos)
      << msg;
  // A count mismatch names the counts and the missing positions.
  EXPECT_C_FAILURE(
      stabletorch_library_impl_with_signature(impl, "two", &add_one_kernel, TORCH_ABI_VERSION,
                                              "(Tensor _0) -> (Tensor, int)"),
      "stabletorch_library_impl_with_signature",
      "argument 2 ('x') is float? in the schema but missing in the kernel");
  // Malformed signature, null handle.
  EXPECT_C_FAILURE(stabletorch_library_impl_with_signature(impl, "two", &add_one_kernel,
                                                           TORCH_ABI_VERSION, "Tensor -> int"),
                   "stabletorch_library_impl_with_signature", "is not a schema signature");
  EXPECT_C_FAILURE(stabletorch_library_impl_with_signature(nullptr, "two", &add_one_kernel,
                                                           TORCH_ABI_VERSION, "() -> ()"),
                   "stabletorch_library_impl_with_signature", "self");
  // NULL signature: registered unchecked, as torch_library_impl.
  EXPECT_C_OK(stabletorch_library_impl_with_signature(impl, "two", &add_one_kernel,
                                                      TORCH_ABI_VERSION, nullptr));
  ASSERT_C_OK(aoti_torch_delete_library_object(impl));

  // Impl first: the def that disagrees is refused.
  TorchLibraryHandle impl2 = nullptr, frag = nullptr;
  ASSERT_C_OK(aoti_torch_library_init_impl("stc_sig", "CPU", __FILE__, __LINE__, &impl2));
  ASSERT_C_OK(stabletorch_library_impl_with_signature(impl2, "late", &add_one_kernel,
                                                      TORCH_ABI_VERSION, "(int _0) -> Tensor"));
  ASSERT_C_OK(aoti_torch_library_init_fragment("stc_sig", __FILE__, __LINE__, &frag));
  EXPECT_C_FAILURE(aoti_torch_library_def(frag, "late(Tensor t) -> Tensor"),
                   "aoti_torch_library_def",
                   "argument 0 ('t') is Tensor in the schema but int in the kernel");
  ASSERT_C_OK(aoti_torch_delete_library_object(frag));
  ASSERT_C_OK(aoti_torch_delete_library_object(impl2));
  ASSERT_C_OK(aoti_torch_delete_library_object(def));
}

// stabletorch_library_report_failure: the extension says registering into a
// library failed; the library drops what it registered and refuses more.
TEST_F(LibraryTest, AReportedFailureDropsTheLibrarysRegistrations) {
  TorchLibraryHandle def = nullptr;
  ASSERT_C_OK(aoti_torch_library_init_def("stc_reported", __FILE__, __LINE__, &def));
  ASSERT_C_OK(aoti_torch_library_def(def, "first(int x) -> int"));
  ASSERT_TRUE(has_op("stc_reported::first", ""));
  ASSERT_C_OK(stabletorch_library_report_failure(def, "the block threw: boom"));
  EXPECT_FALSE(has_op("stc_reported::first", ""));
  EXPECT_C_FAILURE(aoti_torch_library_def(def, "second(int x) -> int"), "aoti_torch_library_def",
                   "was dropped: its registration failed (the block threw: boom)");
  ASSERT_C_OK(aoti_torch_delete_library_object(def));
  EXPECT_C_FAILURE(stabletorch_library_report_failure(nullptr, "x"),
                   "stabletorch_library_report_failure", "self");
  // The namespace is free again.
  ASSERT_C_OK(aoti_torch_library_init_def("stc_reported", __FILE__, __LINE__, &def));
  ASSERT_C_OK(stabletorch_library_report_failure(def, nullptr));
  ASSERT_C_OK(aoti_torch_delete_library_object(def));
}

namespace {
// Throws without touching its stack: the argument handle is still there.
void throw_keeping_kernel(StableIValue*, uint64_t, uint64_t) {
  throw std::runtime_error("kept and threw");
}
// Leaves a return, then throws: the return handle is the core's to free.
void return_then_throw_kernel(StableIValue* stack, uint64_t, uint64_t) {
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0]));
  stack[0] = from_ptr(make_floats({7}));
  throw 42;  // not a std::exception
}
// Writes a bare tensor handle where a `Tensor?` return's slot pointer
// belongs.
void bare_optional_return_kernel(StableIValue* stack, uint64_t, uint64_t) {
  // stack[0] already holds a tensor handle (the argument): return it bare.
  (void)stack;
}
}  // namespace

// A raw boxed kernel that fails leaks nothing its buffer still holds.
TEST_F(LibraryTest, FailingRawKernelsLeakNoHandle) {
  TorchLibraryHandle def = nullptr;
  ASSERT_C_OK(aoti_torch_library_init_def("stc_leak", __FILE__, __LINE__, &def));
  ASSERT_C_OK(aoti_torch_library_def(def, "keep(Tensor t, str s, int[] l) -> Tensor"));
  ASSERT_C_OK(aoti_torch_library_def(def, "ret(Tensor t) -> Tensor"));
  ASSERT_C_OK(aoti_torch_library_impl(def, "keep", &throw_keeping_kernel));
  ASSERT_C_OK(aoti_torch_library_impl(def, "ret", &return_then_throw_kernel));
  int64_t before = -1, after = -1;
  ASSERT_C_OK(stabletorch_live_handle_count(&before));
  for (int i = 0; i < 3; ++i) {
    StringHandle s = nullptr;
    ASSERT_C_OK(torch_new_string_handle("x", 1, &s));
    StableListHandle l = nullptr;
    ASSERT_C_OK(torch_new_list_reserve_size(1, &l));
    ASSERT_C_OK(torch_list_push_back(l, 3));
    StableIValue stack[3] = {from_ptr(make_floats({1})), from_ptr(s), from_ptr(l)};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_leak::keep", "", stack), "stc_leak::keep",
                     "kept and threw");
    StableIValue stack2[1] = {from_ptr(make_floats({1}))};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_leak::ret", "", stack2), "stc_leak::ret",
                     "unknown type");
  }
  ASSERT_C_OK(stabletorch_live_handle_count(&after));
  EXPECT_EQ(after, before);
  ASSERT_C_OK(aoti_torch_delete_library_object(def));
}

// A kernel that writes a bare tensor handle into a `Tensor?` return: a
// clean error naming the return, its type and what was found; the handle
// is released.
TEST_F(LibraryTest, BareHandleInOptionalReturnIsAnError) {
  TorchLibraryHandle def = nullptr;
  ASSERT_C_OK(aoti_torch_library_init_def("stc_bare", __FILE__, __LINE__, &def));
  ASSERT_C_OK(aoti_torch_library_def(def, "opt(Tensor t) -> Tensor?"));
  ASSERT_C_OK(aoti_torch_library_impl(def, "opt", &bare_optional_return_kernel));
  StableIValue stack[1] = {from_ptr(make_floats({1}))};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_bare::opt", "", stack), "stc_bare::opt",
                   "return 0: expected Tensor? (0, or a pointer to a heap StableIValue from "
                   "torch_new_stable_ivalue) but got a tensor handle");
  ASSERT_C_OK(aoti_torch_delete_library_object(def));
}

// A build version newer than the runtime's level is refused, naming both.
TEST_F(LibraryTest, NewerBuildVersionIsRefused) {
  TorchLibraryHandle def = nullptr;
  ASSERT_C_OK(aoti_torch_library_init_def("stc_ver", __FILE__, __LINE__, &def));
  ASSERT_C_OK(aoti_torch_library_def(def, "add_one(Tensor t) -> Tensor"));
  EXPECT_C_FAILURE(torch_library_impl(def, "add_one", &add_one_kernel, UINT64_MAX),
                   "torch_library_impl",
                   "extension_build_version 0xffffffffffffffff (255.255.255) is newer than the "
                   "newest stable-ABI level this runtime knows (2.15.0; it serves "
                   "TORCH_ABI_VERSION");
  EXPECT_NE(last_error().find("(" TORCH_VERSION ")"), std::string::npos) << last_error();
  EXPECT_C_FAILURE(stabletorch_library_impl_with_signature(
                       def, "add_one", &add_one_kernel, (uint64_t{2} << 56) | (uint64_t{16} << 48),
                       "(Tensor _0) -> Tensor"),
                   "stabletorch_library_impl_with_signature", "(2.16.0) is newer than the newest");
  // PyTorch 2.15's headers pass 2.15 whatever level the plugin targets.
  EXPECT_C_OK(torch_library_impl(def, "add_one", &add_one_kernel,
                                 (uint64_t{2} << 56) | (uint64_t{15} << 48)));
  // Older levels and another ABI tag of this level are served.
  EXPECT_C_OK(torch_library_impl(def, "add_one", &add_one_kernel, TORCH_VERSION_2_9_0));
  EXPECT_C_OK(torch_library_impl(def, "add_one", &add_one_kernel, TORCH_ABI_VERSION | 7));
  ASSERT_C_OK(aoti_torch_delete_library_object(def));
}

// torch_library_def_with_tags: the tags reach the core's operator, in
// order; a bad count, array or code defines nothing and names what was
// wrong.
TEST_F(LibraryTest, DefWithTagsStoresTheTagsOnTheOperator) {
  TorchLibraryHandle def = nullptr;
  ASSERT_C_OK(aoti_torch_library_init_def("stc_tags", __FILE__, __LINE__, &def));
  const int32_t tags[] = {torch_tag_pointwise(), torch_tag_pt2_compliant_tag()};
  ASSERT_C_OK(torch_library_def_with_tags(def, "scaled(Tensor t) -> Tensor", tags, 2));
  ASSERT_C_OK(torch_library_def_with_tags(def, "untagged(Tensor t) -> Tensor", nullptr, 0));
  // Tags without a getter are tags all the same (Tag::inplace is 6).
  const int32_t inplace[] = {6};
  ASSERT_C_OK(torch_library_def_with_tags(def, "bump_(Tensor(a!) t) -> Tensor(a!)", inplace, 1));
  auto& d = st::Dispatcher::singleton();
  EXPECT_EQ(d.findSchemaOrThrow("stc_tags::scaled", "").tags(),
            (std::vector<st::Tag>{st::Tag::pointwise, st::Tag::pt2_compliant_tag}));
  EXPECT_TRUE(d.findSchemaOrThrow("stc_tags::untagged", "").tags().empty());
  EXPECT_TRUE(d.findSchemaOrThrow("stc_tags::bump_", "").hasTag(st::Tag::inplace));

  const int32_t bad[] = {torch_tag_core(), 99};
  EXPECT_C_FAILURE(torch_library_def_with_tags(def, "a(Tensor t) -> Tensor", bad, 2),
                   "torch_library_def_with_tags",
                   "tags[1]: unknown tag code 99 (use the torch_tag_*() getters)");
  const int32_t negative[] = {-1};
  EXPECT_C_FAILURE(torch_library_def_with_tags(def, "a(Tensor t) -> Tensor", negative, 1),
                   "torch_library_def_with_tags", "tags[0]: unknown tag code -1");
  EXPECT_C_FAILURE(torch_library_def_with_tags(def, "a(Tensor t) -> Tensor", tags, -1),
                   "torch_library_def_with_tags", "num_tags: -1 is not a tag count");
  EXPECT_C_FAILURE(torch_library_def_with_tags(def, "a(Tensor t) -> Tensor", tags, 65),
                   "torch_library_def_with_tags", "num_tags: 65 is not a tag count");
  EXPECT_C_FAILURE(torch_library_def_with_tags(def, "a(Tensor t) -> Tensor", nullptr, 1),
                   "torch_library_def_with_tags", "tags: null array with num_tags 1");
  EXPECT_FALSE(has_op("stc_tags::a", ""));
  EXPECT_C_FAILURE(torch_library_def_with_tags(def, nullptr, tags, 2),
                   "torch_library_def_with_tags", "null schema");
  EXPECT_C_FAILURE(torch_library_def_with_tags(def, "scaled(Tensor t) -> Tensor", tags, 2),
                   "torch_library_def_with_tags", "already defined");
  EXPECT_C_FAILURE(torch_library_def_with_tags(nullptr, "a(Tensor t) -> Tensor", bad, 2),
                   "torch_library_def_with_tags", "self");
  EXPECT_C_FAILURE(torch_library_def_with_tags(foreign<TorchLibraryHandle>(), "a() -> ()", tags, 2),
                   "torch_library_def_with_tags", "foreign library handle");
  ASSERT_C_OK(aoti_torch_delete_library_object(def));
  EXPECT_FALSE(has_op("stc_tags::scaled", ""));
  EXPECT_C_FAILURE(torch_library_def_with_tags(def, "a(Tensor t) -> Tensor", tags, 2),
                   "torch_library_def_with_tags", "already deleted");
}

// torch_library_set_python_module: later defs carry the module, and a
// missing kernel's error says to import it.
TEST_F(LibraryTest, SetPythonModuleAppliesToLaterDefs) {
  TorchLibraryHandle def = nullptr;
  ASSERT_C_OK(aoti_torch_library_init_def("stc_pymod", __FILE__, __LINE__, &def));
  ASSERT_C_OK(aoti_torch_library_def(def, "before(Tensor t) -> Tensor"));
  ASSERT_C_OK(torch_library_set_python_module(def, "stc_pymod.fake", "fake kernels"));
  ASSERT_C_OK(aoti_torch_library_def(def, "after(Tensor t) -> Tensor"));
  const int32_t tags[] = {torch_tag_reduction()};
  ASSERT_C_OK(torch_library_def_with_tags(def, "tagged(Tensor t) -> Tensor", tags, 1));
  ASSERT_C_OK(torch_library_set_python_module(def, "stc_pymod.other", nullptr));
  ASSERT_C_OK(aoti_torch_library_def(def, "last(Tensor t) -> Tensor"));

  auto& d = st::Dispatcher::singleton();
  EXPECT_FALSE(d.findSchemaOrThrow("stc_pymod::before", "").pythonModule().has_value());
  const auto after = d.findSchemaOrThrow("stc_pymod::after", "").pythonModule();
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->module, "stc_pymod.fake");
  EXPECT_EQ(after->context, "fake kernels");
  EXPECT_EQ(d.findSchemaOrThrow("stc_pymod::tagged", "").pythonModule()->module, "stc_pymod.fake");
  const auto last = d.findSchemaOrThrow("stc_pymod::last", "").pythonModule();
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->module, "stc_pymod.other");
  EXPECT_EQ(last->context, "");

  StableIValue stack[1] = {from_ptr(make_floats({1}))};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_pymod::after", "", stack), "stc_pymod::after",
                   "Python-side registrations live in module 'stc_pymod.fake' (fake kernels); "
                   "import it first");

  EXPECT_C_FAILURE(torch_library_set_python_module(def, nullptr, "x"),
                   "torch_library_set_python_module", "pymodule: null Python module name");
  EXPECT_C_FAILURE(torch_library_set_python_module(def, "", "x"), "torch_library_set_python_module",
                   "pymodule: empty Python module name");
  EXPECT_C_FAILURE(torch_library_set_python_module(nullptr, "m", "x"),
                   "torch_library_set_python_module", "self");
  ASSERT_C_OK(aoti_torch_delete_library_object(def));
  EXPECT_C_FAILURE(torch_library_set_python_module(def, "m", ""), "torch_library_set_python_module",
                   "already deleted");
}
