// aoti_torch_call_dispatcher / torch_call_dispatcher: lookups, stack
// conventions, errors naming operator/argument/kinds, no leaks.
#include "c_api_test_util.h"
#include "stc_test_ops.h"

#include <chrono>
#include <climits>
#include <cstdlib>
#include <future>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

#include <st/core/empty_tensor.h>
#include <st/core/warning.h>
#include <st/dispatch/library.h>
#include <st/dispatch/suggestion_hook.h>

using namespace stc_test;

namespace {
// A one-element Meta tensor over `blob` (no allocation).
AtenTensorHandle meta_tensor(float* blob) {
  const int64_t size = 1;
  AtenTensorHandle m = nullptr;
  EXPECT_EQ(
      aoti_torch_create_tensor_from_blob(blob, 1, &size, nullptr, 0, aoti_torch_dtype_float32(),
                                         aoti_torch_device_type_meta(), 0, &m),
      AOTI_TORCH_SUCCESS)
      << last_error();
  return m;
}
}  // namespace

class CallDispatcherTest : public CApiTest {
 protected:
  void SetUp() override {
    CApiTest::SetUp();
    register_test_ops();
  }
};

TEST_F(CallDispatcherTest, StealsArgumentsAndReturnsNewReferences) {
  AtenTensorHandle t = make_floats({1, 2});
  StableIValue stack[1] = {from_ptr(t)};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_test::noop", "", stack));
  AtenTensorHandle out = to_ptr<AtenTensorHandle>(stack[0]);
  EXPECT_EQ(read_floats(out), (std::vector<float>{1, 2}));
  bool d = false;
  EXPECT_EQ(aoti_torch_is_defined(t, &d), AOTI_TORCH_FAILURE);  // stolen
  // Reuse the stack for a second call (extensions do).
  ASSERT_C_OK(torch_call_dispatcher("stc_test::noop", "", stack, TORCH_ABI_VERSION));
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0]));
}

TEST_F(CallDispatcherTest, TheArgumentHandleIsDeletedThoughItsSlotHoldsTheReturn) {
  // The return is built in the slot of the argument just taken (Note
  // [Returns in the arguments' slots]): the argument's handle must still
  // read as deleted, and the live count must not change.
  int64_t n0 = -1, n = -1;
  AtenTensorHandle t = make_floats({5});
  ASSERT_C_OK(stabletorch_live_handle_count(&n0));
  StableIValue stack[1] = {from_ptr(t)};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_test::noop", "", stack));
  AtenTensorHandle out = to_ptr<AtenTensorHandle>(stack[0]);
  ASSERT_C_OK(stabletorch_live_handle_count(&n));
  EXPECT_EQ(n, n0);
  const uintptr_t addr_mask = (uintptr_t{1} << 48) - 1;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(out) & addr_mask,
            reinterpret_cast<uintptr_t>(t) & addr_mask)
      << "the return was expected in the argument's slot";
  EXPECT_NE(out, t);
  int64_t dim = 0;
  EXPECT_C_FAILURE(aoti_torch_get_dim(t, &dim), "aoti_torch_get_dim", "already deleted");
  EXPECT_C_FAILURE(aoti_torch_delete_tensor_object(t), "aoti_torch_delete_tensor_object",
                   "already deleted");
  EXPECT_EQ(read_floats(out), (std::vector<float>{5}));
  // Passing the stale argument handle again fails cleanly, naming it.
  StableIValue again[1] = {from_ptr(t)};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::noop", "", again),
                   "aoti_torch_call_dispatcher", "already deleted");
  ASSERT_C_OK(aoti_torch_delete_tensor_object(out));
}

TEST_F(CallDispatcherTest, ZeroArgumentsAndReturns) {
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::nothing", "", nullptr),
                   "aoti_torch_call_dispatcher", "stack is null");
  StableIValue unused[1] = {0};
  EXPECT_C_OK(aoti_torch_call_dispatcher("stc_test::nothing", "", unused));
}

// Note [Bounded operator suggestions] (core dispatcher): a huge name gets a
// clear error without any suggestion work; near names are suggested with
// the dispatcher mutex released, so a registration from another thread
// meanwhile goes through.
namespace {
int g_suggestions = 0;
bool g_registered_meanwhile = false;
void count_suggestions() { ++g_suggestions; }
void register_from_another_thread() {
  ++g_suggestions;
  // With the dispatcher mutex held by this thread, the registration would
  // wait for ever; the wait below gives up instead of hanging the suite.
  auto done = std::async(std::launch::async, [] {
    st::Library lib(st::Library::FRAGMENT, "stc_suggest", std::nullopt, __FILE__, __LINE__);
    lib.def("during_suggestions(Tensor t) -> Tensor");
  });
  g_registered_meanwhile = done.wait_for(std::chrono::minutes(2)) == std::future_status::ready;
  if (!g_registered_meanwhile) std::abort();  // the worker is stuck on the mutex
}
}  // namespace

TEST_F(CallDispatcherTest, HugeOperatorNamesGetNoSuggestions) {
  const std::string huge(size_t{1} << 20, 'x');
  g_suggestions = 0;
  st::detail::setSuggestionHookForTesting(&count_suggestions);
  StableIValue stack[1] = {0};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher(huge.c_str(), "", stack),
                   "aoti_torch_call_dispatcher", "could not find an operator named 'xxx");
  EXPECT_NE(last_error().find("... (1048576 characters)'"), std::string::npos);
  EXPECT_NE(last_error().find("get no suggestions"), std::string::npos);
  EXPECT_LT(last_error().size(), 1000u);
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::noop", huge.c_str(), stack),
                   "aoti_torch_call_dispatcher", "get no suggestions");
  EXPECT_EQ(g_suggestions, 0);
  // A short near name still gets its suggestion.
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::noopp", "", stack),
                   "aoti_torch_call_dispatcher", "did you mean: 'stc_test::noop'");
  EXPECT_EQ(g_suggestions, 1);
  st::detail::setSuggestionHookForTesting(nullptr);
}

TEST_F(CallDispatcherTest, SuggestionsAreComputedWithoutTheDispatcherLock) {
  g_suggestions = 0;
  g_registered_meanwhile = false;
  st::detail::setSuggestionHookForTesting(&register_from_another_thread);
  StableIValue stack[1] = {0};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::nooq", "", stack),
                   "aoti_torch_call_dispatcher", "did you mean");
  st::detail::setSuggestionHookForTesting(nullptr);
  EXPECT_EQ(g_suggestions, 1);
  EXPECT_TRUE(g_registered_meanwhile);
}

// Note [Build versions newer than the runtime]: refused before the stack is
// read, naming both versions; the caller keeps its arguments.
TEST_F(CallDispatcherTest, NewerBuildVersionIsRefused) {
  AtenTensorHandle t = make_floats({1});
  StableIValue stack[1] = {from_ptr(t)};
  EXPECT_C_FAILURE(torch_call_dispatcher("stc_test::noop", "", stack, UINT64_MAX),
                   "torch_call_dispatcher",
                   "extension_build_version 0xffffffffffffffff (255.255.255) is newer than the "
                   "newest stable-ABI level this runtime knows (2.15.0; it serves "
                   "TORCH_ABI_VERSION");
  EXPECT_NE(last_error().find("(" TORCH_VERSION ")"), std::string::npos) << last_error();
  bool d = false;
  EXPECT_C_OK(aoti_torch_is_defined(t, &d));  // not taken
  ASSERT_C_OK(torch_call_dispatcher("stc_test::noop", "", stack, TORCH_VERSION_2_9_0));
  ASSERT_C_OK(aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0])));
}

namespace {
int64_t live_handles() {
  int64_t n = -1;
  EXPECT_EQ(stabletorch_live_handle_count(&n), AOTI_TORCH_SUCCESS);
  return n;
}

// A present Tensor? holding a new handle to a one-element tensor.
StableIValue optional_tensor() {
  StableIValue* slot = nullptr;
  EXPECT_EQ(torch_new_stable_ivalue(&slot), AOTI_TORCH_SUCCESS);
  *slot = from_ptr(make_tensor({1}));
  return from_ptr(slot);
}

// An int[] of one element.
StableIValue int_list() {
  StableListHandle l = nullptr;
  EXPECT_EQ(torch_new_list_reserve_size(1, &l), AOTI_TORCH_SUCCESS);
  EXPECT_EQ(torch_list_push_back(l, 7), AOTI_TORCH_SUCCESS);
  return from_ptr(l);
}

void throwing_kernel(const st::OperatorHandle&, st::DispatchKeySet, st::Stack*) {
  ST_ERROR("mixed boom");
}
}  // namespace

// Note [StableIValue stacks]: until the operator is found nothing says what
// the stack holds, so every failure up to there leaves the arguments to the
// caller (as PyTorch's dispatcher, which looks the operator up first).
TEST_F(CallDispatcherTest, FailuresBeforeTheOperatorIsFoundLeaveTheArgumentsToTheCaller) {
  AtenTensorHandle a = make_tensor({1});
  AtenTensorHandle b = make_tensor({1});
  const int64_t n0 = live_handles();
  StableIValue stack[2] = {from_ptr(a), from_ptr(b)};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::nope", "", stack),
                   "aoti_torch_call_dispatcher",
                   "could not find an operator named 'stc_test::nope'");
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::two", "nope", stack),
                   "aoti_torch_call_dispatcher", "stc_test::two.nope");
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher(nullptr, "", stack), "aoti_torch_call_dispatcher",
                   "opName is null");
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::two", nullptr, stack),
                   "aoti_torch_call_dispatcher", "overloadName is null");
  EXPECT_C_FAILURE(torch_call_dispatcher("stc_test::two", "", stack, UINT64_MAX),
                   "torch_call_dispatcher", "is newer than");
  EXPECT_C_FAILURE(torch_call_dispatcher("stc_test::two", "", nullptr, TORCH_ABI_VERSION),
                   "torch_call_dispatcher", "stack is null");
  EXPECT_EQ(live_handles(), n0);
  EXPECT_EQ(stack[0], from_ptr(a));
  EXPECT_EQ(stack[1], from_ptr(b));
  // Still the caller's: a good call takes both and returns one.
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_test::two", "", stack));
  EXPECT_EQ(live_handles(), n0 - 1);
  ASSERT_C_OK(aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0])));
}

// Once the operator is found, every failure has released every argument,
// on the typed first step and on the boxed steps, for plain arguments and
// for those decoded by schema type (optionals, lists): the live-handle
// count is back where it was before the arguments were made.
TEST_F(CallDispatcherTest, EveryFailureOnceTheOperatorIsFoundReleasesEveryArgument) {
  st::Library def(st::Library::DEF, "stc_fail", std::nullopt, __FILE__, __LINE__);
  def.def("mixed(Tensor a, Tensor? b, int[] c) -> Tensor");
  st::Library impl(st::Library::IMPL, "stc_fail", st::DispatchKey::CPU, __FILE__, __LINE__);
  impl.impl("mixed", st::CppFunction::makeFromBoxedFunction(&throwing_kernel));
  float blob[1] = {0};
  const int64_t n0 = live_handles();
  {
    // A bad argument, typed shape: a list where a tensor belongs.
    StableIValue stack[2] = {from_ptr(make_tensor({1})), int_list()};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::two", "", stack), "stc_test::two",
                     "argument 1 'b'");
    EXPECT_EQ(live_handles(), n0);
  }
  {
    // A bad argument decoded by schema type: a tensor where int[] belongs.
    StableIValue stack[3] = {from_ptr(make_tensor({1})), optional_tensor(),
                             from_ptr(make_tensor({1}))};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_fail::mixed", "", stack), "stc_fail::mixed",
                     "argument 2 'c'");
    EXPECT_EQ(live_handles(), n0);
  }
  {
    // The kernel of a plan with optionals and lists fails.
    StableIValue stack[3] = {from_ptr(make_tensor({1})), optional_tensor(), int_list()};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_fail::mixed", "", stack), "stc_fail::mixed",
                     "mixed boom");
    EXPECT_EQ(live_handles(), n0);
  }
  {
    // A typed kernel fails.
    StableIValue stack[1] = {from_ptr(make_tensor({1}))};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::throws", "", stack), "stc_test::throws",
                     "boom");
    EXPECT_EQ(live_handles(), n0);
  }
  {
    // No kernel for the arguments' key (a Meta tensor; noop has CPU only).
    StableIValue stack[1] = {from_ptr(meta_tensor(blob))};
    EXPECT_EQ(aoti_torch_call_dispatcher("stc_test::noop", "", stack), AOTI_TORCH_FAILURE);
    EXPECT_EQ(live_handles(), n0);
  }
  {
    // A boxed kernel returns the wrong kind.
    StableIValue stack[1] = {from_ptr(make_tensor({1}))};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::wrong_return", "", stack),
                     "stc_test::wrong_return", "return 0");
    EXPECT_EQ(live_handles(), n0);
  }
}

TEST_F(CallDispatcherTest, BadArgumentsNameIndexNameAndKindsAndAreReleased) {
  AtenTensorHandle a = make_tensor({1});
  StableListHandle l = nullptr;
  ASSERT_C_OK(torch_new_list_reserve_size(0, &l));
  StableIValue stack[2] = {from_ptr(a), from_ptr(l)};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::two", "", stack),
                   "aoti_torch_call_dispatcher",
                   "stc_test::two: argument 1 'b': expected Tensor (a tensor handle) but got a "
                   "list handle");
  // Both slots were stolen: a and the (wrong-kind) list are released.
  bool d = false;
  EXPECT_EQ(aoti_torch_is_defined(a, &d), AOTI_TORCH_FAILURE);
  size_t n = 0;
  EXPECT_EQ(torch_list_size(l, &n), AOTI_TORCH_FAILURE);

  StableIValue bad[2] = {0, from_ptr(deleted_tensor())};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::two", "", bad), "stc_test::two",
                   "argument 0 'a': expected Tensor (a tensor handle) but got a null pointer");
  EXPECT_NE(last_error().find("argument 1 'b': expected Tensor (a tensor handle) but got an "
                              "already deleted handle"),
            std::string::npos);
  StableIValue junk[2] = {0x1234, 0x1234};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::two", "", junk), "stc_test::two",
                   "not a handle made by this library");
}

TEST_F(CallDispatcherTest, SameHandleTwiceIsRefused) {
  AtenTensorHandle a = make_tensor({1});
  StableIValue stack[2] = {from_ptr(a), from_ptr(a)};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::two", "", stack), "stc_test::two",
                   "argument 1 'b': the same tensor handle as argument 0 'a'");
  bool d = false;
  EXPECT_EQ(aoti_torch_is_defined(a, &d), AOTI_TORCH_FAILURE);  // released once
}

namespace {
int64_t count_scalars(const st::Scalar&, const st::Scalar&) { return 2; }
}  // namespace

TEST_F(CallDispatcherTest, SameScalarHandleTwiceIsRefused) {
  // Scalar handles are stolen like tensors: the same one twice would be
  // destroyed and its slot freed twice (two later handles sharing a slot).
  st::Library def(st::Library::DEF, "stc_dup", std::nullopt, __FILE__, __LINE__);
  def.def("f(Scalar a, Scalar b) -> int");
  // No tensor argument: a composite kernel serves it (a CPU kernel would
  // not, as in PyTorch).
  st::Library impl(st::Library::IMPL, "stc_dup", st::DispatchKey::CompositeExplicitAutograd,
                   __FILE__, __LINE__);
  impl.impl("f", &count_scalars);
  StableScalarHandle a = nullptr, b = nullptr;
  ASSERT_C_OK(stabletorch_scalar_from_int(1, &a));
  StableIValue stack[2] = {from_ptr(a), from_ptr(a)};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_dup::f", "", stack), "stc_dup::f",
                   "argument 1 'b': the same scalar handle as argument 0 'a'");
  // Released once; the next two handles get distinct slots.
  ASSERT_C_OK(stabletorch_scalar_from_int(2, &a));
  ASSERT_C_OK(stabletorch_scalar_from_int(3, &b));
  EXPECT_NE(reinterpret_cast<uintptr_t>(a) & ((uintptr_t{1} << 48) - 1),
            reinterpret_cast<uintptr_t>(b) & ((uintptr_t{1} << 48) - 1));
  StableIValue ok[2] = {from_ptr(a), from_ptr(b)};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_dup::f", "", ok));
  EXPECT_EQ(static_cast<int64_t>(ok[0]), 2);
}

TEST_F(CallDispatcherTest, KernelErrorsNameTheOperator) {
  AtenTensorHandle t = make_tensor({1});
  StableIValue stack[1] = {from_ptr(t)};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::throws", "", stack),
                   "aoti_torch_call_dispatcher", "boom");
  EXPECT_NE(last_error().find("stc_test::throws"), std::string::npos);
  AtenTensorHandle t2 = make_tensor({1});
  StableIValue stack2[1] = {from_ptr(t2)};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_test::wrong_return", "", stack2),
                   "stc_test::wrong_return", "return 0: expected Tensor but got int");
}

TEST_F(CallDispatcherTest, NoKernelForTheKeyIsAnError) {
  // A Meta tensor (wrapping a blob: no allocation): stc_test::noop has a
  // CPU kernel only.
  float blob[1] = {0};
  AtenTensorHandle m = meta_tensor(blob);
  StableIValue stack[1] = {from_ptr(m)};
  EXPECT_EQ(aoti_torch_call_dispatcher("stc_test::noop", "", stack), AOTI_TORCH_FAILURE);
  EXPECT_NE(last_error().find("stc_test::noop"), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("Meta"), std::string::npos) << last_error();
}

TEST_F(CallDispatcherTest, ManyThreadsCallConcurrently) {
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k) {
    threads.emplace_back([] {
      for (int i = 0; i < 500; ++i) {
        AtenTensorHandle t = nullptr;
        ASSERT_EQ(aoti_torch_new_uninitialized_tensor(&t), AOTI_TORCH_SUCCESS);
        StableIValue s[2] = {from_ptr(t), 0};  // b is missing: fails, t is released
        EXPECT_EQ(aoti_torch_call_dispatcher("stc_test::two", "", s), AOTI_TORCH_FAILURE);
        AtenTensorHandle r = make_tensor({1});
        StableIValue s2[1] = {from_ptr(r)};
        ASSERT_EQ(aoti_torch_call_dispatcher("stc_test::noop", "", s2), AOTI_TORCH_SUCCESS);
        aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(s2[0]));
      }
    });
  }
  for (auto& th : threads) th.join();
}

TEST_F(CallDispatcherTest, AtenAddWhenRegistered) {
  if (!has_op("aten::add", "Tensor")) GTEST_SKIP() << "aten::add.Tensor is not registered yet";
  AtenTensorHandle a = make_floats({1, 2});
  AtenTensorHandle b = make_floats({10, 20});
  StableScalarHandle alpha = nullptr;
  ASSERT_C_OK(stabletorch_scalar_from_int(2, &alpha));
  StableIValue stack[3] = {from_ptr(a), from_ptr(b), from_ptr(alpha)};
  ASSERT_C_OK(aoti_torch_call_dispatcher("aten::add", "Tensor", stack));
  EXPECT_EQ(read_floats(to_ptr<AtenTensorHandle>(stack[0])), (std::vector<float>{21, 42}));
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0]));
}

// Note [Converter plans] in call_dispatcher.cpp: a plan is cached per
// operator name and must follow the operator's current schema.

namespace {

// The same pointers on every call, as an extension's literals are: the
// plan cache finds its entry by them.
const char* const kPlanOp = "stc_plan::f";

st::Tensor first_of(const st::Tensor& a) { return a; }
int64_t second_of(const st::Tensor&, int64_t n) { return n; }

}  // namespace

TEST_F(CallDispatcherTest, PlanFollowsTheSchemaAcrossRemovalAndRedefinition) {
  std::optional<st::Library> def, impl;
  def.emplace(st::Library::DEF, "stc_plan", std::nullopt, __FILE__, __LINE__);
  def->def("f(Tensor a) -> Tensor");
  impl.emplace(st::Library::IMPL, "stc_plan", st::DispatchKey::CPU, __FILE__, __LINE__);
  impl->impl("f", &first_of);
  StableIValue s1[1] = {from_ptr(make_floats({3}))};
  ASSERT_C_OK(aoti_torch_call_dispatcher(kPlanOp, "", s1));  // the plan is cached
  EXPECT_EQ(read_floats(to_ptr<AtenTensorHandle>(s1[0])), (std::vector<float>{3}));
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(s1[0]));

  // Removed (a plugin unloading): the cached plan must not be used, and
  // the argument is still released (the fixture checks no handle leaks).
  impl.reset();
  def.reset();
  StableIValue s2[1] = {from_ptr(make_floats({4}))};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher(kPlanOp, "", s2), "aoti_torch_call_dispatcher",
                   "stc_plan::f");
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(s2[0]));

  // Defined again under the same name with another schema: the call
  // follows the new one (two arguments, an int return).
  def.emplace(st::Library::DEF, "stc_plan", std::nullopt, __FILE__, __LINE__);
  def->def("f(Tensor a, int n) -> int");
  impl.emplace(st::Library::IMPL, "stc_plan", st::DispatchKey::CPU, __FILE__, __LINE__);
  impl->impl("f", &second_of);
  StableIValue s3[2] = {from_ptr(make_floats({5})), 7};
  ASSERT_C_OK(aoti_torch_call_dispatcher(kPlanOp, "", s3));
  EXPECT_EQ(s3[0], 7u);
  // Errors name the new schema's arguments.
  StableIValue s4[2] = {0, 7};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher(kPlanOp, "", s4), "stc_plan::f",
                   "argument 0 'a': expected Tensor (a tensor handle) but got a null pointer");
}

namespace {

// stc_nest::f's kernel: the outer call (one argument) redefines f with a
// second argument and calls it again through the C ABI, under the same
// name pointer, while the outer call's plan is still in use: the nested
// call replaces the cached plan, which must stay alive until the outer
// call has encoded its return.
std::optional<st::Library> g_nest_def;
void nest_kernel(const st::OperatorHandle&, st::DispatchKeySet, st::Stack* stack) {
  if (stack->size() == 1) {
    g_nest_def.reset();
    g_nest_def.emplace(st::Library::DEF, "stc_nest", std::nullopt, __FILE__, __LINE__);
    g_nest_def->def("f(Tensor a, int n) -> Tensor");
    StableIValue s[2] = {from_ptr(make_floats({1})), 1};
    ST_CHECK(aoti_torch_call_dispatcher("stc_nest::f", "", s) == AOTI_TORCH_SUCCESS, last_error());
    aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(s[0]));
    return;  // returns its argument
  }
  stack->pop_back();  // n
}

}  // namespace

TEST_F(CallDispatcherTest, NestedCallReplacingTheOuterPlanIsSafe) {
  g_nest_def.emplace(st::Library::DEF, "stc_nest", std::nullopt, __FILE__, __LINE__);
  g_nest_def->def("f(Tensor a) -> Tensor");
  std::optional<st::Library> impl;
  impl.emplace(st::Library::IMPL, "stc_nest", st::DispatchKey::CompositeExplicitAutograd, __FILE__,
               __LINE__);
  impl->impl("f", st::CppFunction::makeFromBoxedFunction(&nest_kernel));
  StableIValue s[1] = {from_ptr(make_floats({8}))};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_nest::f", "", s));
  EXPECT_EQ(read_floats(to_ptr<AtenTensorHandle>(s[0])), (std::vector<float>{8}));
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(s[0]));
  impl.reset();
  g_nest_def.reset();
}

// Note [Calling typed kernels unboxed] in call_dispatcher.cpp: typed
// kernels of the common shapes are called with references into the
// argument slots; everything else takes the boxed path. Both must behave
// the same.

namespace {

struct Seen {
  int64_t n = 0;
  double x = 0;
  bool b = false;
  double s = 0;
  const void* a = nullptr;  // where the tensor argument was
};
Seen g_seen;

st::Tensor mix_kernel(const st::Tensor& a, int64_t n, double x) {
  g_seen.n = n;
  g_seen.x = x;
  g_seen.a = &a;
  return a;
}
st::Tensor flags_kernel(const st::Tensor& a, bool b, const st::Scalar& s) {
  g_seen.b = b;
  g_seen.s = s.toDouble();
  return a;
}
// The boxed kernel of stc_typed::pick: replaces its argument with a fresh
// tensor holding {7}, so a test sees which kernel ran.
void pick_boxed(const st::OperatorHandle&, st::DispatchKeySet, st::Stack* s) {
  const int64_t one = 1;
  st::Tensor t = st::detail::empty_generic(st::IntArrayRef(&one, 1), st::ScalarType::Float,
                                           st::Device(st::DeviceType::CPU));
  t.data_ptr<float>()[0] = 7;
  s->back() = st::IValue(std::move(t));
}

StableIValue double_bits(double d) {
  StableIValue v = 0;
  std::memcpy(&v, &d, sizeof d);
  return v;
}

}  // namespace

TEST_F(CallDispatcherTest, TypedCallsPassEveryKindOfArgumentIntact) {
  st::Library def(st::Library::DEF, "stc_typed", std::nullopt, __FILE__, __LINE__);
  def.def("mix(Tensor a, int n, float x) -> Tensor");
  def.def("flags(Tensor a, bool b, Scalar s) -> Tensor");
  st::Library impl(st::Library::IMPL, "stc_typed", st::DispatchKey::CPU, __FILE__, __LINE__);
  impl.impl("mix", &mix_kernel);
  impl.impl("flags", &flags_kernel);

  AtenTensorHandle a = make_floats({4});
  StableIValue stack[3] = {from_ptr(a), static_cast<StableIValue>(INT64_MIN + 5),
                           double_bits(-1e300)};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_typed::mix", "", stack));
  // The kernel saw the tensor in the handle's own slot (its payload
  // follows the 8-byte state word): the unboxed call, not the boxed one.
  const uintptr_t slot = reinterpret_cast<uintptr_t>(a) & ((uintptr_t{1} << 48) - 1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(g_seen.a), slot + 8);
  EXPECT_EQ(g_seen.n, INT64_MIN + 5);
  EXPECT_EQ(g_seen.x, -1e300);
  AtenTensorHandle r = to_ptr<AtenTensorHandle>(stack[0]);
  EXPECT_EQ(read_floats(r), (std::vector<float>{4}));
  bool d = false;
  EXPECT_EQ(aoti_torch_is_defined(a, &d), AOTI_TORCH_FAILURE);  // stolen

  // A bool is its low-order byte; a Scalar handle is stolen too.
  for (const auto& [bits, expected] :
       {std::pair<StableIValue, bool>{0x100, false}, {0x101, true}}) {
    StableScalarHandle s = nullptr;
    ASSERT_C_OK(stabletorch_scalar_from_double(2.5, &s));
    StableIValue st2[3] = {from_ptr(r), bits, from_ptr(s)};
    ASSERT_C_OK(aoti_torch_call_dispatcher("stc_typed::flags", "", st2));
    EXPECT_EQ(g_seen.b, expected) << bits;
    EXPECT_EQ(g_seen.s, 2.5);
    double back = 0;
    EXPECT_EQ(stabletorch_scalar_to_double(s, &back), AOTI_TORCH_FAILURE);  // stolen
    r = to_ptr<AtenTensorHandle>(st2[0]);
  }
  ASSERT_C_OK(aoti_torch_delete_tensor_object(r));
}

TEST_F(CallDispatcherTest, KernelsTheTypedCallCannotTakeGoBoxed) {
  st::Library def(st::Library::DEF, "stc_typed2", std::nullopt, __FILE__, __LINE__);
  def.def("byval(Tensor a) -> Tensor");
  def.def("pick(Tensor a) -> Tensor");
  st::Library cpu(st::Library::IMPL, "stc_typed2", st::DispatchKey::CPU, __FILE__, __LINE__);
  // Another C++ signature than the C ABI's Tensor(const Tensor&): the
  // table does not vouch for it, the boxed adapter runs.
  cpu.impl("byval", [](st::Tensor t) { return t; });
  cpu.impl("pick", [](const st::Tensor& t) { return t; });
  // A boxed kernel for Meta next to the typed CPU one.
  st::Library meta(st::Library::IMPL, "stc_typed2", st::DispatchKey::Meta, __FILE__, __LINE__);
  meta.impl("pick", st::CppFunction::makeFromBoxedFunction(&pick_boxed));

  StableIValue s[1] = {from_ptr(make_floats({3}))};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_typed2::byval", "", s));
  EXPECT_EQ(read_floats(to_ptr<AtenTensorHandle>(s[0])), (std::vector<float>{3}));
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_typed2::pick", "", s));  // typed CPU kernel
  EXPECT_EQ(read_floats(to_ptr<AtenTensorHandle>(s[0])), (std::vector<float>{3}));
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(s[0]));

  float blob[1] = {0};
  AtenTensorHandle m = meta_tensor(blob);
  StableIValue sm[1] = {from_ptr(m)};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_typed2::pick", "", sm));  // the boxed Meta kernel
  EXPECT_EQ(read_floats(to_ptr<AtenTensorHandle>(sm[0])), (std::vector<float>{7}));
  aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(sm[0]));
}

TEST_F(CallDispatcherTest, ReplacingTheKernelIsNoticedByTheTypedCall) {
  // The plan remembers which table vouched for its typed call; a new
  // table (a kernel replaced, then restored) must be checked again.
  st::Library def(st::Library::DEF, "stc_typed3", std::nullopt, __FILE__, __LINE__);
  def.def("pick(Tensor a) -> Tensor");
  st::Library typed(st::Library::IMPL, "stc_typed3", st::DispatchKey::CPU, __FILE__, __LINE__);
  typed.impl("pick", [](const st::Tensor& t) { return t; });
  const auto call = [] {
    StableIValue s[1] = {from_ptr(make_floats({3}))};
    EXPECT_C_OK(aoti_torch_call_dispatcher("stc_typed3::pick", "", s));
    const std::vector<float> got = read_floats(to_ptr<AtenTensorHandle>(s[0]));
    aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(s[0]));
    return got;
  };
  EXPECT_EQ(call(), (std::vector<float>{3}));
  {
    st::WarningCapture quiet;  // "overriding a previously registered kernel"
    st::Library boxed(st::Library::IMPL, "stc_typed3", st::DispatchKey::CPU, __FILE__, __LINE__);
    boxed.impl("pick", st::CppFunction::makeFromBoxedFunction(&pick_boxed));
    EXPECT_EQ(call(), (std::vector<float>{7}));
  }
  EXPECT_EQ(call(), (std::vector<float>{3}));
}

TEST_F(CallDispatcherTest, TypedKernelFailuresReleaseTheArguments) {
  st::Library def(st::Library::DEF, "stc_typed4", std::nullopt, __FILE__, __LINE__);
  def.def("f(Tensor a, Scalar s) -> Tensor");
  st::Library impl(st::Library::IMPL, "stc_typed4", st::DispatchKey::CPU, __FILE__, __LINE__);
  impl.impl("f", [](const st::Tensor&, const st::Scalar& s) -> st::Tensor {
    if (s.toDouble() > 0) throw std::runtime_error("not an st::Error");
    ST_ERROR("negative");
  });
  for (double v : {1.0, -1.0}) {
    AtenTensorHandle a = make_floats({1});
    StableScalarHandle s = nullptr;
    ASSERT_C_OK(stabletorch_scalar_from_double(v, &s));
    StableIValue stack[2] = {from_ptr(a), from_ptr(s)};
    EXPECT_EQ(aoti_torch_call_dispatcher("stc_typed4::f", "", stack), AOTI_TORCH_FAILURE);
    EXPECT_NE(last_error().find(v > 0 ? "not an st::Error" : "negative"), std::string::npos)
        << last_error();
    if (v < 0) {
      EXPECT_NE(last_error().find("stc_typed4::f"), std::string::npos) << last_error();
    }
    bool d = false;
    EXPECT_EQ(aoti_torch_is_defined(a, &d),
              AOTI_TORCH_FAILURE);  // released; the fixture checks leaks
  }
}

namespace {

// stc_nest2::f's typed kernel: at the outer level it redefines f twice
// (same schema, new objects) and calls it each time, so that nested calls
// replace the outer call's cached plan twice; then it fails, and the
// outer call's error path still reads its plan.
std::optional<st::Library> g_nest2_def;
int g_nest2_level = 0;
st::Tensor nest2_kernel(const st::Tensor& a) {
  if (g_nest2_level > 0) return a;
  ++g_nest2_level;
  for (int i = 0; i < 2; ++i) {
    g_nest2_def.reset();
    g_nest2_def.emplace(st::Library::DEF, "stc_nest2", std::nullopt, __FILE__, __LINE__);
    g_nest2_def->def("f(Tensor a) -> Tensor");
    StableIValue s[1] = {from_ptr(make_floats({1}))};
    const bool ok = aoti_torch_call_dispatcher("stc_nest2::f", "", s) == AOTI_TORCH_SUCCESS;
    if (ok) aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(s[0]));
    ST_CHECK(ok, last_error());
  }
  --g_nest2_level;
  ST_ERROR("outer failure");
}

}  // namespace

TEST_F(CallDispatcherTest, NestedCallsReplacingATypedCallsPlanAreSafe) {
  g_nest2_def.emplace(st::Library::DEF, "stc_nest2", std::nullopt, __FILE__, __LINE__);
  g_nest2_def->def("f(Tensor a) -> Tensor");
  std::optional<st::Library> impl;
  impl.emplace(st::Library::IMPL, "stc_nest2", st::DispatchKey::CPU, __FILE__, __LINE__);
  impl->impl("f", &nest2_kernel);
  StableIValue s[1] = {from_ptr(make_floats({8}))};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_nest2::f", "", s), "stc_nest2::f",
                   "outer failure");
  impl.reset();
  g_nest2_def.reset();
}

namespace {
st::Tensor filled(int64_t n) {
  const int64_t one = 1;
  st::Tensor t = st::detail::empty_generic(st::IntArrayRef(&one, 1), st::ScalarType::Float,
                                           st::Device(st::DeviceType::CPU));
  t.data_ptr<float>()[0] = static_cast<float>(n);
  return t;
}
}  // namespace

TEST_F(CallDispatcherTest, TypedCallWithoutHandleArgumentsMakesItsReturnHandle) {
  // No argument slot to reuse: the return gets a new one. No tensor
  // argument either: the call dispatches to BackendSelect.
  st::Library def(st::Library::DEF, "stc_typed5", std::nullopt, __FILE__, __LINE__);
  def.def("filled(int n) -> Tensor");
  st::Library impl(st::Library::IMPL, "stc_typed5", st::DispatchKey::BackendSelect, __FILE__,
                   __LINE__);
  impl.impl("filled", &filled);
  int64_t n0 = -1, n1 = -1;
  ASSERT_C_OK(stabletorch_live_handle_count(&n0));
  StableIValue stack[1] = {static_cast<StableIValue>(int64_t{9})};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_typed5::filled", "", stack));
  ASSERT_C_OK(stabletorch_live_handle_count(&n1));
  EXPECT_EQ(n1, n0 + 1);
  EXPECT_EQ(read_floats(to_ptr<AtenTensorHandle>(stack[0])), (std::vector<float>{9}));
  ASSERT_C_OK(aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0])));
}

// Strings on the typed call (Note [Calling typed kernels unboxed]): a str
// is a string handle, a str? 0 or a heap slot holding one, as PyTorch's
// stable headers pass them; the kernel gets a view of the handle's own
// string, which shows that the typed call ran (the boxed steps copy it).

namespace {

struct SeenString {
  bool present = false;
  std::string text;
  const char* data = nullptr;
  const void* out = nullptr;  // where the out= tensor argument was
};
SeenString g_str;

st::Tensor str_kernel(const st::Tensor& a, std::string_view s) {
  g_str = {true, std::string(s), s.data(), nullptr};
  return a;
}
st::Tensor opt_str_kernel(const st::Tensor& a, const st::Tensor&,
                          std::optional<std::string_view> s) {
  g_str = {s.has_value(), s ? std::string(*s) : std::string(), s ? s->data() : nullptr, nullptr};
  return a;
}
st::Tensor opt_str_out_kernel(const st::Tensor&, const st::Scalar&,
                              std::optional<std::string_view> s, const st::Tensor& out) {
  g_str = {s.has_value(), s ? std::string(*s) : std::string(), s ? s->data() : nullptr, &out};
  return out;
}

StringHandle new_string(const char* s) {
  StringHandle h = nullptr;
  EXPECT_EQ(torch_new_string_handle(s, std::strlen(s), &h), AOTI_TORCH_SUCCESS) << last_error();
  return h;
}
// A str? slot as the stable headers make it (`new StableIValue`), or
// from torch_new_stable_ivalue.
StableIValue optional_string(StringHandle h, bool tracked) {
  if (!tracked) return from_ptr(new StableIValue(from_ptr(h)));
  StableIValue* slot = nullptr;
  EXPECT_EQ(torch_new_stable_ivalue(&slot), AOTI_TORCH_SUCCESS) << last_error();
  *slot = from_ptr(h);
  return from_ptr(slot);
}
// Whether `p` lies in the 64-byte handle slot of `h`.
bool in_slot_of(const void* h, const void* p) {
  const uintptr_t slot = reinterpret_cast<uintptr_t>(h) & ((uintptr_t{1} << 48) - 1);
  const uintptr_t q = reinterpret_cast<uintptr_t>(p);
  return q >= slot && q < slot + 64;
}

class TypedStrings : public CallDispatcherTest {
 protected:
  void SetUp() override {
    CallDispatcherTest::SetUp();
    def_.emplace(st::Library::DEF, "stc_str", std::nullopt, __FILE__, __LINE__);
    def_->def("s(Tensor a, str s) -> Tensor");
    def_->def("o(Tensor a, Tensor b, *, str? mode) -> Tensor");
    def_->def("o_out(Tensor a, Scalar b, *, str? mode, Tensor(a!) out) -> Tensor(a!)");
    impl_.emplace(st::Library::IMPL, "stc_str", st::DispatchKey::CPU, __FILE__, __LINE__);
    impl_->impl("s", &str_kernel);
    impl_->impl("o", &opt_str_kernel);
    impl_->impl("o_out", &opt_str_out_kernel);
  }
  void TearDown() override {
    impl_.reset();
    def_.reset();
    CallDispatcherTest::TearDown();
  }
  std::optional<st::Library> def_, impl_;
};

}  // namespace

TEST_F(TypedStrings, AStrIsReadInPlaceAndStolen) {
  const int64_t n0 = live_handles();
  StringHandle s = new_string("tanh");
  StableIValue stack[2] = {from_ptr(make_floats({1})), from_ptr(s)};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_str::s", "", stack));
  EXPECT_EQ(g_str.text, "tanh");
  EXPECT_TRUE(in_slot_of(s, g_str.data)) << "the typed call was expected";
  size_t len = 0;
  EXPECT_EQ(torch_string_length(s, &len), AOTI_TORCH_FAILURE);  // stolen
  ASSERT_C_OK(aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0])));
  EXPECT_EQ(live_handles(), n0);
}

TEST_F(TypedStrings, AnOptionalStrIsNoneOrASlotOfEitherOrigin) {
  const int64_t n0 = live_handles();
  AtenTensorHandle a = make_floats({2});
  for (const bool tracked : {false, true}) {
    StringHandle s = new_string("floor");
    StableIValue stack[3] = {from_ptr(a), from_ptr(make_floats({3})), optional_string(s, tracked)};
    ASSERT_C_OK(aoti_torch_call_dispatcher("stc_str::o", "", stack));
    EXPECT_TRUE(g_str.present);
    EXPECT_EQ(g_str.text, "floor");
    EXPECT_TRUE(in_slot_of(s, g_str.data)) << "the typed call was expected";
    size_t len = 0;
    EXPECT_EQ(torch_string_length(s, &len), AOTI_TORCH_FAILURE);  // stolen
    a = to_ptr<AtenTensorHandle>(stack[0]);
  }
  StableIValue none[3] = {from_ptr(a), from_ptr(make_floats({3})), 0};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_str::o", "", none));
  EXPECT_FALSE(g_str.present);
  EXPECT_EQ(read_floats(to_ptr<AtenTensorHandle>(none[0])), (std::vector<float>{2}));
  ASSERT_C_OK(aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(none[0])));
  EXPECT_EQ(live_handles(), n0);
}

TEST_F(TypedStrings, TheOutFormOfAShapeWithAStringIsTypedToo) {
  const int64_t n0 = live_handles();
  AtenTensorHandle out = make_floats({0, 0});
  const uintptr_t out_slot = reinterpret_cast<uintptr_t>(out) & ((uintptr_t{1} << 48) - 1);
  StableScalarHandle b = nullptr;
  ASSERT_C_OK(stabletorch_scalar_from_double(2, &b));
  StableIValue stack[4] = {from_ptr(make_floats({1})), from_ptr(b),
                           optional_string(new_string("trunc"), false), from_ptr(out)};
  ASSERT_C_OK(aoti_torch_call_dispatcher("stc_str::o_out", "", stack));
  EXPECT_EQ(g_str.text, "trunc");
  // The out= tensor in its handle's own slot (the payload follows the
  // 8-byte state word): the typed call.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(g_str.out), out_slot + 8);
  EXPECT_EQ(read_floats(to_ptr<AtenTensorHandle>(stack[0])), (std::vector<float>{0, 0}));
  ASSERT_C_OK(aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0])));
  EXPECT_EQ(live_handles(), n0);
}

TEST_F(TypedStrings, WrongKindsAreNamedAndEverythingIsReleased) {
  const int64_t n0 = live_handles();
  {
    // A tensor handle where the str belongs.
    StableIValue stack[2] = {from_ptr(make_floats({1})), from_ptr(make_floats({1}))};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_str::s", "", stack), "stc_str::s",
                     "argument 1 's': expected str (a string handle) but got a tensor handle");
    EXPECT_EQ(live_handles(), n0);
  }
  {
    // A null and a deleted string handle.
    StableIValue stack[2] = {from_ptr(make_floats({1})), 0};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_str::s", "", stack), "stc_str::s",
                     "argument 1 's': expected str (a string handle) but got a null pointer");
    StringHandle gone = new_string("x");
    ASSERT_C_OK(torch_delete_string(gone));
    StableIValue stack2[2] = {from_ptr(make_floats({1})), from_ptr(gone)};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_str::s", "", stack2), "stc_str::s",
                     "already deleted");
    EXPECT_EQ(live_handles(), n0);
  }
  {
    // A bare string handle where the str? slot belongs: refused, and the
    // stolen handle released.
    StableIValue stack[3] = {from_ptr(make_floats({1})), from_ptr(make_floats({1})),
                             from_ptr(new_string("floor"))};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_str::o", "", stack), "stc_str::o",
                     "argument 2 'mode': expected str?");
    EXPECT_EQ(live_handles(), n0);
  }
  {
    // A slot holding a tensor handle where a string belongs.
    StableIValue stack[3] = {from_ptr(make_floats({1})), from_ptr(make_floats({1})),
                             from_ptr(new StableIValue(from_ptr(make_floats({1}))))};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_str::o", "", stack), "stc_str::o",
                     "argument 2 'mode': expected str (a string handle) but got a tensor handle");
    EXPECT_EQ(live_handles(), n0);
  }
  {
    // A wrong kind next to a good string: the string is released too.
    StableIValue stack[2] = {0, from_ptr(new_string("none"))};
    EXPECT_C_FAILURE(aoti_torch_call_dispatcher("stc_str::s", "", stack), "stc_str::s",
                     "argument 0 'a'");
    EXPECT_EQ(live_handles(), n0);
  }
}

TEST_F(CallDispatcherTest, DivRoundingModesThroughTheTypedCall) {
  if (!has_op("aten::div", "Tensor_mode")) GTEST_SKIP() << "aten::div.Tensor_mode not registered";
  const int64_t n0 = live_handles();
  struct Case {
    const char* mode;  // null: None
    std::vector<float> expected;
  };
  const std::vector<float> a{7, -7, 5.5f}, b{2, 2, -2};
  for (const Case& c : {Case{nullptr, {3.5f, -3.5f, -2.75f}}, Case{"trunc", {3, -3, -2}},
                        Case{"floor", {3, -4, -3}}}) {
    StableIValue mode = c.mode ? optional_string(new_string(c.mode), false) : 0;
    StableIValue stack[3] = {from_ptr(make_floats(a)), from_ptr(make_floats(b)), mode};
    ASSERT_C_OK(aoti_torch_call_dispatcher("aten::div", "Tensor_mode", stack));
    EXPECT_EQ(read_floats(to_ptr<AtenTensorHandle>(stack[0])), c.expected)
        << (c.mode ? c.mode : "None");
    ASSERT_C_OK(aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(stack[0])));

    // The out= form writes into out and returns it.
    AtenTensorHandle out = make_floats({0, 0, 0});
    AtenTensorHandle out_ref = nullptr;
    ASSERT_C_OK(aoti_torch_new_tensor_handle(out, &out_ref));
    StableIValue mode2 = c.mode ? optional_string(new_string(c.mode), true) : 0;
    StableIValue st4[4] = {from_ptr(make_floats(a)), from_ptr(make_floats(b)), mode2,
                           from_ptr(out)};
    ASSERT_C_OK(aoti_torch_call_dispatcher("aten::div", "out_mode", st4));
    EXPECT_EQ(read_floats(out_ref), c.expected);
    ASSERT_C_OK(aoti_torch_delete_tensor_object(to_ptr<AtenTensorHandle>(st4[0])));
    ASSERT_C_OK(aoti_torch_delete_tensor_object(out_ref));
  }
  // PyTorch's message for a mode it does not know; every argument released.
  StableIValue bad[3] = {from_ptr(make_floats(a)), from_ptr(make_floats(b)),
                         optional_string(new_string("round"), false)};
  EXPECT_C_FAILURE(aoti_torch_call_dispatcher("aten::div", "Tensor_mode", bad), "aten::div",
                   "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                   "'round'");
  EXPECT_EQ(live_handles(), n0);
}
