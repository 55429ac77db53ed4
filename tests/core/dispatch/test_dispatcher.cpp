// Tests for st::Dispatcher and st::OperatorEntry: the precedence of table
// entries (one test per row of Note [Computing a dispatch table entry]),
// kernel lists, fallthrough, key extraction, BackendSelect, boxed and typed
// calls, lookup, and the debugging dumps.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include <st/core/warning.h>
#include <st/dispatch/dispatcher.h>
#include <st/dispatch/library.h>
#include <st/dispatch/read_guard.h>

#include "dispatch/dispatch_test_util.h"

namespace st {
namespace {

using testing::errorOf;
using testing::tensorOn;

// Each kernel returns its own id so a test sees which one ran.
template <int64_t id>
int64_t ret(const Tensor&) {
  return id;
}

#define FRAG(ns) Library(Library::FRAGMENT, ns, std::nullopt, __FILE__, __LINE__)
#define IMPL(ns, key) Library(Library::IMPL, ns, DispatchKey::key, __FILE__, __LINE__)

int64_t callOn(const char* name, DeviceType d) {
  OperatorHandle op = Dispatcher::singleton().findSchemaOrThrow(name, "");
  Stack s{IValue(tensorOn(d))};
  op.callBoxed(&s);
  EXPECT_EQ(s.size(), 1u);
  return s.at(0).toInt();
}

// --- precedence, one test per row --------------------------------------------

TEST(DispatchPrecedence, Row1_DirectBackendKernelBeatsEverything) {
  auto def = FRAG("prec1");
  def.def("op(Tensor self) -> int");
  auto cea = IMPL("prec1", CompositeExplicitAutograd);
  cea.impl("op", ST_FN(ret<2>));
  auto fb = Library(Library::IMPL, "_", DispatchKey::CPU, __FILE__, __LINE__);
  fb.fallback(CppFunction::makeFromBoxedLambda(
      [](const OperatorHandle&, DispatchKeySet, Stack* s) { s->back() = IValue(4); }));
  auto cpu = IMPL("prec1", CPU);
  cpu.impl("op", ST_FN(ret<1>));
  EXPECT_EQ(callOn("prec1::op", DeviceType::CPU), 1);
  EXPECT_EQ(callOn("prec1::op", DeviceType::CUDA), 2);
}

TEST(DispatchPrecedence, Row2_CompositeExplicitAutogradWhenNoDirectKernel) {
  auto def = FRAG("prec2");
  def.def("op(Tensor self) -> int");
  auto cea = IMPL("prec2", CompositeExplicitAutograd);
  cea.impl("op", ST_FN(ret<2>));
  auto cuda = IMPL("prec2", CUDA);
  cuda.impl("op", ST_FN(ret<1>));
  EXPECT_EQ(callOn("prec2::op", DeviceType::CPU), 2);
  EXPECT_EQ(callOn("prec2::op", DeviceType::Meta), 2);
  EXPECT_EQ(callOn("prec2::op", DeviceType::PrivateUse1), 2);
  EXPECT_EQ(callOn("prec2::op", DeviceType::CUDA), 1);
}

TEST(DispatchPrecedence, Row2_CompositeExplicitAutogradBeatsBackendFallback) {
  auto def = FRAG("prec2b");
  def.def("op(Tensor self) -> int");
  auto fb = Library(Library::IMPL, "_", DispatchKey::PrivateUse1, __FILE__, __LINE__);
  fb.fallback(CppFunction::makeFromBoxedLambda(
      [](const OperatorHandle&, DispatchKeySet, Stack* s) { s->back() = IValue(4); }));
  auto cea = IMPL("prec2b", CompositeExplicitAutograd);
  cea.impl("op", ST_FN(ret<2>));
  EXPECT_EQ(callOn("prec2b::op", DeviceType::PrivateUse1), 2);
}

TEST(DispatchPrecedence, Row3_CompositeImplicitAutogradWhenNoDirectOrExplicit) {
  auto def = FRAG("prec3");
  def.def("op(Tensor self) -> int");
  auto cia = IMPL("prec3", CompositeImplicitAutograd);
  cia.impl("op", ST_FN(ret<3>));
  auto meta = IMPL("prec3", Meta);
  meta.impl("op", ST_FN(ret<1>));
  EXPECT_EQ(callOn("prec3::op", DeviceType::CPU), 3);
  EXPECT_EQ(callOn("prec3::op", DeviceType::Meta), 1);
  auto h = Dispatcher::singleton().findSchemaOrThrow("prec3::op", "");
  std::string table = h.dumpComputedTable();
  EXPECT_NE(table.find("CPU: unboxed kernel [registered at"), std::string::npos) << table;
  EXPECT_NE(table.find("(CompositeImplicitAutograd)"), std::string::npos) << table;
  // Autograd keys use the implicit kernel only when the backend has no kernel.
  EXPECT_NE(table.find("AutogradCPU: unboxed kernel"), std::string::npos) << table;
  EXPECT_NE(table.find("AutogradMeta: fallthrough"), std::string::npos) << table;
}

TEST(DispatchPrecedence, Row3_ImplicitKernelIsTheDefaultForDefWithKernel) {
  auto def = FRAG("prec3b");
  def.def("op(Tensor self) -> int", ST_FN(ret<3>));
  EXPECT_EQ(callOn("prec3b::op", DeviceType::CUDA), 3);
  auto h = Dispatcher::singleton().findSchemaOrThrow("prec3b::op", "");
  EXPECT_NE(h.dumpState().find("CompositeImplicitAutograd: unboxed kernel"), std::string::npos);
}

TEST(DispatchPrecedence, Row4_BackendFallbackWhenNoKernelAtAll) {
  auto def = FRAG("prec4");
  def.def("op(Tensor self) -> int");
  auto fb = Library(Library::IMPL, "_", DispatchKey::PrivateUse1, __FILE__, __LINE__);
  fb.fallback(
      CppFunction::makeFromBoxedLambda([](const OperatorHandle& op, DispatchKeySet, Stack* s) {
        EXPECT_EQ(op.operatorName().toString(), "prec4::op");
        s->back() = IValue(4);
      }));
  EXPECT_EQ(callOn("prec4::op", DeviceType::PrivateUse1), 4);
  // A direct kernel still beats it.
  auto pu = IMPL("prec4", PrivateUse1);
  pu.impl("op", ST_FN(ret<1>));
  EXPECT_EQ(callOn("prec4::op", DeviceType::PrivateUse1), 1);
}

TEST(DispatchPrecedence, Row5_NoKernelErrorNamesOperatorKeyAndKernels) {
  auto def = FRAG("prec5");
  def.def("op(Tensor self) -> int");
  auto cuda = IMPL("prec5", CUDA);
  cuda.impl("op", ST_FN(ret<1>));
  auto meta = IMPL("prec5", Meta);
  meta.impl("op", ST_FN(ret<1>));
  std::string e = errorOf([] { callOn("prec5::op", DeviceType::CPU); });
  EXPECT_EQ(e,
            "could not run 'prec5::op' with arguments from the 'CPU' backend: the operator "
            "has no kernel for CPU. 'prec5::op' has kernels for: [CUDA, Meta]");
}

TEST(DispatchPrecedence, BothCompositeKeysIsAnError) {
  auto def = FRAG("prec6");
  def.def("op(Tensor self) -> int");
  auto cia = IMPL("prec6", CompositeImplicitAutograd);
  cia.impl("op", ST_FN(ret<3>));
  auto cea = IMPL("prec6", CompositeExplicitAutograd);
  std::string e = errorOf([&] { cea.impl("op", ST_FN(ret<2>)); });
  EXPECT_NE(e.find("cannot register a CompositeExplicitAutograd kernel"), std::string::npos) << e;
  EXPECT_NE(e.find("already has a CompositeImplicitAutograd kernel (registered at"),
            std::string::npos)
      << e;
  EXPECT_EQ(callOn("prec6::op", DeviceType::CPU), 3);
}

TEST(DispatchPrecedence, AutogradAliasKernelRunsBeforeBackendAndRedispatches) {
  auto def = FRAG("prec7");
  def.def("op(Tensor self) -> int");
  auto cpu = IMPL("prec7", CPU);
  cpu.impl("op", ST_FN(ret<1>));
  auto ag = IMPL("prec7", Autograd);
  ag.impl("op", [](DispatchKeySet ks, const Tensor& t) -> int64_t {
    EXPECT_TRUE(ks.has(DispatchKey::AutogradCPU));
    auto h =
        Dispatcher::singleton().findSchemaOrThrow("prec7::op", "").typed<int64_t(const Tensor&)>();
    return 10 + h.redispatch(ks.remove(DispatchKey::AutogradCPU), t);
  });
  EXPECT_EQ(callOn("prec7::op", DeviceType::CPU), 11);
}

// --- kernel lists --------------------------------------------------------------

TEST(OperatorEntryTest, OverwriteWarnsAndWinsRemovalRestores) {
  auto def = FRAG("kl");
  def.def("op(Tensor self) -> int");
  auto first = IMPL("kl", CPU);
  first.impl("op", ST_FN(ret<1>));
  EXPECT_EQ(callOn("kl::op", DeviceType::CPU), 1);
  {
    WarningCapture w;
    auto second = IMPL("kl", CPU);
    second.impl("op", ST_FN(ret<2>));
    ASSERT_EQ(w.messages().size(), 1u);
    EXPECT_NE(w.messages()[0].find("overriding a previously registered kernel"), std::string::npos);
    EXPECT_NE(w.messages()[0].find("dispatch key: CPU"), std::string::npos);
    EXPECT_NE(w.messages()[0].find("kl::op"), std::string::npos);
    EXPECT_EQ(callOn("kl::op", DeviceType::CPU), 2);
    auto h = Dispatcher::singleton().findSchemaOrThrow("kl::op", "");
    EXPECT_NE(h.dumpState().find("(overridden) CPU"), std::string::npos) << h.dumpState();
    h.checkInvariants();
  }
  EXPECT_EQ(callOn("kl::op", DeviceType::CPU), 1);
}

TEST(OperatorEntryTest, RemovingTheOlderKernelKeepsTheNewer) {
  auto def = FRAG("kl2");
  def.def("op(Tensor self) -> int");
  auto first = std::make_unique<Library>(IMPL("kl2", CPU));
  first->impl("op", ST_FN(ret<1>));
  WarningCapture w;
  auto second = IMPL("kl2", CPU);
  second.impl("op", ST_FN(ret<2>));
  first.reset();
  EXPECT_EQ(callOn("kl2::op", DeviceType::CPU), 2);
}

TEST(OperatorEntryTest, PerOperatorFallthrough) {
  auto def = FRAG("ft");
  def.def("op(Tensor self) -> int");
  auto cpu = IMPL("ft", CPU);
  cpu.impl("op", ST_FN(ret<1>));
  auto ag = IMPL("ft", AutogradCPU);
  ag.impl("op", ST_FN(ret<5>));
  EXPECT_EQ(callOn("ft::op", DeviceType::CPU), 5);
  {
    WarningCapture w;
    auto ft = IMPL("ft", AutogradCPU);
    ft.impl("op", CppFunction::makeFallthrough());
    EXPECT_EQ(callOn("ft::op", DeviceType::CPU), 1);
  }
  EXPECT_EQ(callOn("ft::op", DeviceType::CPU), 5);
}

TEST(OperatorEntryTest, DumpsAndInvariants) {
  auto def = FRAG("dump");
  def.def("op(Tensor self) -> int");
  auto cpu = IMPL("dump", CPU);
  cpu.impl("op", ST_FN(ret<1>));
  auto h = Dispatcher::singleton().findSchemaOrThrow("dump::op", "");
  std::string state = h.dumpState();
  EXPECT_NE(state.find("name: dump::op"), std::string::npos) << state;
  EXPECT_NE(state.find("schema: dump::op(Tensor self) -> int"), std::string::npos) << state;
  EXPECT_NE(state.find("debug: registered at "), std::string::npos) << state;
  EXPECT_NE(state.find("test_dispatcher.cpp:"), std::string::npos) << state;
  EXPECT_NE(state.find("CPU: unboxed kernel [registered at "), std::string::npos) << state;
  std::string table = h.dumpComputedTable();
  EXPECT_NE(table.find("CPU: unboxed kernel"), std::string::npos) << table;
  EXPECT_NE(table.find("(kernel)"), std::string::npos) << table;
  EXPECT_NE(table.find("CUDA: missing"), std::string::npos) << table;
  EXPECT_NE(table.find("BackendSelect: boxed kernel [registered by the dispatcher"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("ADInplaceOrView: fallthrough"), std::string::npos) << table;
  h.checkInvariants();
  Dispatcher::singleton().checkInvariants();
}

// Note [Incremental table updates]: each registration below publishes a
// copy of the table with only the entries it can affect recomputed; after
// every step checkInvariants compares the table with a full rebuild.
TEST(OperatorEntryTest, IncrementalUpdatesMatchAFullRebuild) {
  auto& d = Dispatcher::singleton();
  auto early = std::make_unique<Library>(IMPL("incr", CUDA));
  early->impl("op", ST_FN(ret<9>));  // impl before def: creates the entry
  OperatorHandle h = *d.findOp(OperatorName("incr::op", ""));
  h.checkInvariants();
  auto def = std::make_unique<Library>(FRAG("incr"));
  def->def("op(Tensor self) -> int");
  h.checkInvariants();
  early.reset();
  h.checkInvariants();
  auto cia = IMPL("incr", CompositeImplicitAutograd);
  cia.impl("op", ST_FN(ret<2>));
  h.checkInvariants();
  EXPECT_EQ(callOn("incr::op", DeviceType::CPU), 2);  // AutogradCPU: the implicit kernel
  {
    // A CPU kernel takes AutogradCPU away from the implicit kernel (rule 3):
    // the update must recompute AutogradCPU as well as CPU.
    auto cpu = IMPL("incr", CPU);
    cpu.impl("op", ST_FN(ret<1>));
    h.checkInvariants();
    EXPECT_EQ(callOn("incr::op", DeviceType::CPU), 1);
    EXPECT_EQ(callOn("incr::op", DeviceType::CUDA), 2);
    auto ag_cpu = IMPL("incr", AutogradCPU);
    ag_cpu.impl("op", ST_FN(ret<3>));
    h.checkInvariants();
    EXPECT_EQ(callOn("incr::op", DeviceType::CPU), 3);
    auto ag = IMPL("incr", Autograd);
    ag.impl("op", ST_FN(ret<4>));
    h.checkInvariants();
  }
  h.checkInvariants();
  EXPECT_EQ(callOn("incr::op", DeviceType::CPU), 2);  // back to the implicit kernel
  def.reset();
  h.checkInvariants();
  d.checkInvariants();
}

// --- registration order and keys ---------------------------------------------------

TEST(DispatcherTest, ImplBeforeDef) {
  auto cpu = IMPL("early", CPU);
  cpu.impl("op", ST_FN(ret<1>));
  EXPECT_FALSE(Dispatcher::singleton().findSchema(OperatorName("early::op", "")).has_value());
  auto op = Dispatcher::singleton().findOp(OperatorName("early::op", ""));
  ASSERT_TRUE(op.has_value());
  EXPECT_FALSE(op->hasSchema());
  Stack s{IValue(tensorOn(DeviceType::CPU))};
  EXPECT_NE(errorOf([&] { op->callBoxed(&s); }).find("has no schema"), std::string::npos);
  auto def = FRAG("early");
  def.def("op(Tensor self) -> int");
  EXPECT_EQ(callOn("early::op", DeviceType::CPU), 1);
}

TEST(DispatcherTest, DefAfterMismatchingImplFailsWithDiff) {
  auto cpu = IMPL("early2", CPU);
  cpu.impl("op", ST_FN(ret<1>));
  auto def = FRAG("early2");
  std::string e = errorOf([&] { def.def("op(Tensor self, int n) -> int"); });
  EXPECT_NE(e.find("the schema has 2 argument(s) but the kernel takes 1"), std::string::npos) << e;
  EXPECT_FALSE(Dispatcher::singleton().findSchema(OperatorName("early2::op", "")).has_value());
}

TEST(DispatcherTest, ImplMismatchingSchemaFailsWithDiff) {
  auto def = FRAG("mis");
  def.def("op(Tensor self, int n) -> Tensor");
  auto cpu = IMPL("mis", CPU);
  std::string e = errorOf([&] { cpu.impl("op", [](const Tensor& t, double) { return t; }); });
  EXPECT_NE(e.find("argument 1 ('n') is int in the schema but float in the kernel"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("expected: (Tensor self, int n) -> Tensor"), std::string::npos) << e;
  EXPECT_NE(e.find("kernel:   (Tensor _0, float _1) -> Tensor"), std::string::npos) << e;
  EXPECT_NE(e.find("registered at"), std::string::npos) << e;
}

TEST(DispatcherTest, KernelForKeyThisBuildDoesNotUse) {
  auto def = FRAG("unused");
  def.def("op(Tensor self) -> int");
  auto cuda = IMPL("unused", CUDA);  // fine even when built without CUDA
  cuda.impl("op", ST_FN(ret<1>));
  Library xla(Library::IMPL, "unused", std::string_view("XLA"), __FILE__, __LINE__);
  EXPECT_TRUE(xla.inert());
  xla.impl("op", ST_FN(ret<9>));
  EXPECT_EQ(xla.size(), 0u);
  EXPECT_EQ(callOn("unused::op", DeviceType::CUDA), 1);
}

TEST(DispatcherTest, DuplicateDefNamesBothPlaces) {
  auto a = FRAG("dup");
  a.def("op(Tensor self) -> int");
  auto b = FRAG("dup");
  std::string e = errorOf([&] { b.def("op(Tensor self) -> int"); });
  EXPECT_NE(e.find("'dup::op' is already defined (registered at"), std::string::npos) << e;
  EXPECT_NE(e.find("duplicate def registered at"), std::string::npos) << e;
}

// --- lookup ------------------------------------------------------------------------

TEST(DispatcherTest, Lookup) {
  auto def = FRAG("look");
  def.def("my_add.Tensor(Tensor self, Tensor other) -> Tensor");
  def.def("my_add.Scalar(Tensor self, Scalar other) -> Tensor");
  auto& d = Dispatcher::singleton();
  EXPECT_TRUE(d.findSchema(OperatorName("look::my_add", "Tensor")).has_value());
  EXPECT_FALSE(d.findSchema(OperatorName("look::my_add", "")).has_value());
  auto h = d.findSchemaOrThrow("look::my_add", "Scalar");
  EXPECT_EQ(h.schema().toString(), "look::my_add.Scalar(Tensor self, Scalar other) -> Tensor");
  std::string e = errorOf([&] { d.findSchemaOrThrow("look::my_ad", "Tensor"); });
  EXPECT_NE(e.find("could not find an operator named 'look::my_ad.Tensor'; did you mean: "
                   "'look::my_add.Tensor'"),
            std::string::npos)
      << e;
  e = errorOf([&] { d.findSchemaOrThrow("look::my_add", "Tensr"); });
  EXPECT_NE(e.find("'look::my_add.Tensor'"), std::string::npos) << e;
  EXPECT_NE(e.find("'look::my_add.Scalar'"), std::string::npos) << e;
  auto names = d.getAllOpNames();
  int found = 0;
  for (const auto& n : names) found += n.name == "look::my_add";
  EXPECT_EQ(found, 2);
}

TEST(DispatcherTest, RemovedOperatorDisappears) {
  std::optional<OperatorHandle> h;
  {
    auto def = FRAG("gone");
    def.def("op(Tensor self) -> int", ST_FN(ret<1>));
    h = Dispatcher::singleton().findSchema(OperatorName("gone::op", ""));
    ASSERT_TRUE(h.has_value());
  }
  EXPECT_FALSE(Dispatcher::singleton().findSchema(OperatorName("gone::op", "")).has_value());
  EXPECT_FALSE(Dispatcher::singleton().findOp(OperatorName("gone::op", "")).has_value());
  // A stale handle raises instead of crashing.
  Stack s{IValue(tensorOn(DeviceType::CPU))};
  EXPECT_NE(errorOf([&] { h->callBoxed(&s); }).find("has no schema"), std::string::npos);
  EXPECT_NE(errorOf([&] { (void)h->schema(); }).find("has no schema"), std::string::npos);
}

// --- key extraction ------------------------------------------------------------------

// The backend part of the key set a kernel was called with.
int64_t keyId(DispatchKeySet ks) {
  return static_cast<int64_t>(
      (ks & getRuntimeKeySetForAlias(DispatchKey::CompositeExplicitAutograd)).highestPriorityKey());
}

TEST(KeyExtraction, FromTensorOptionalListAndOptionalList) {
  auto def = FRAG("kx");
  def.def("one(Tensor a) -> int");
  def.def("opt(Tensor? a, Tensor b) -> int");
  def.def("list(Tensor[] a) -> int");
  def.def("optlist(int x, Tensor?[] a) -> int");
  auto fb = FRAG("kx");
  auto record = [](const OperatorHandle& op, DispatchKeySet ks, Stack* s) {
    size_t n = op.schema().arguments().size();
    s->erase(s->end() - static_cast<std::ptrdiff_t>(n), s->end());
    s->push_back(IValue(keyId(ks)));
  };
  for (const char* name : {"one", "opt", "list", "optlist"}) {
    for (DispatchKey k :
         {DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::Meta, DispatchKey::PrivateUse1}) {
      fb.impl(name, dispatch(k, CppFunction::makeFromBoxedLambda(record)));
    }
  }
  auto& d = Dispatcher::singleton();
  auto call = [&](const char* name, Stack s) {
    d.findSchemaOrThrow(std::string("kx::") + name, "").callBoxed(&s);
    return static_cast<DispatchKey>(s.at(0).toInt());
  };
  EXPECT_EQ(call("one", {IValue(tensorOn(DeviceType::Meta))}), DispatchKey::Meta);
  EXPECT_EQ(call("opt", {IValue(), IValue(tensorOn(DeviceType::CUDA))}), DispatchKey::CUDA);
  EXPECT_EQ(
      call("opt", {IValue(tensorOn(DeviceType::PrivateUse1)), IValue(tensorOn(DeviceType::CPU))}),
      DispatchKey::PrivateUse1);
  EXPECT_EQ(
      call("list",
           {IValue(std::vector<Tensor>{tensorOn(DeviceType::CPU), tensorOn(DeviceType::CUDA)})}),
      DispatchKey::CUDA);
  EXPECT_EQ(call("optlist",
                 {IValue(1), IValue::makeList({IValue(), IValue(tensorOn(DeviceType::Meta))})}),
            DispatchKey::Meta);
  // Undefined tensors contribute nothing; a call with no keys and no
  // factory arguments has no backend (Note [Calls without tensor arguments]).
  const std::string no_keys = errorOf([&] { call("one", {IValue(Tensor())}); });
  EXPECT_NE(no_keys.find("kx::one: There were no tensor arguments to this function"),
            std::string::npos)
      << no_keys;
  // Typed calls extract the same keys.
  auto opt = d.findSchemaOrThrow("kx::opt", "")
                 .typed<int64_t(const std::optional<Tensor>&, const Tensor&)>();
  const std::optional<Tensor> none;
  Tensor cuda = tensorOn(DeviceType::CUDA);
  EXPECT_EQ(static_cast<DispatchKey>(opt.call(none, cuda)), DispatchKey::CUDA);
  auto list = d.findSchemaOrThrow("kx::list", "").typed<int64_t(const std::vector<Tensor>&)>();
  EXPECT_EQ(static_cast<DispatchKey>(list.call({tensorOn(DeviceType::Meta)})), DispatchKey::Meta);
  auto optlist = d.findSchemaOrThrow("kx::optlist", "")
                     .typed<int64_t(int64_t, const std::vector<std::optional<Tensor>>&)>();
  EXPECT_EQ(
      static_cast<DispatchKey>(optlist.call(1, {std::nullopt, tensorOn(DeviceType::PrivateUse1)})),
      DispatchKey::PrivateUse1);
}

// --- BackendSelect -------------------------------------------------------------------

TEST(BackendSelect, FactoryRoutesByDeviceArgument) {
  auto def = FRAG("bs");
  def.def(
      "make(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None) -> "
      "int");
  auto cpu = IMPL("bs", CPU);
  cpu.impl("make",
           [](std::vector<int64_t>, std::optional<ScalarType>, std::optional<Layout>,
              std::optional<Device>) -> int64_t { return 1; });
  auto cuda = IMPL("bs", CUDA);
  cuda.impl("make",
            [](std::vector<int64_t>, std::optional<ScalarType>, std::optional<Layout>,
               std::optional<Device> d) -> int64_t {
              EXPECT_EQ(d->index(), 1);
              return 2;
            });
  auto op = Dispatcher::singleton()
                .findSchemaOrThrow("bs::make", "")
                .typed<int64_t(std::vector<int64_t>, std::optional<ScalarType>,
                               std::optional<Layout>, std::optional<Device>)>();
  EXPECT_EQ(op.call({2}, std::nullopt, std::nullopt, std::nullopt), 1);  // default CPU
  EXPECT_EQ(op.call({2}, ScalarType::Float, Layout::Strided, Device(DeviceType::CUDA, 1)), 2);
  std::string e =
      errorOf([&] { op.call({2}, std::nullopt, std::nullopt, Device(DeviceType::Meta)); });
  EXPECT_NE(e.find("from the 'Meta' backend"), std::string::npos) << e;
  e = errorOf([&] { op.call({2}, std::nullopt, Layout::Sparse, std::nullopt); });
  EXPECT_NE(e.find("layout Sparse has no backend"), std::string::npos) << e;
  // A BackendSelect kernel of the operator's own wins over the fallback.
  auto bs = IMPL("bs", BackendSelect);
  bs.impl("make",
          [](std::vector<int64_t>, std::optional<ScalarType>, std::optional<Layout>,
             std::optional<Device>) -> int64_t { return 7; });
  EXPECT_EQ(op.call({2}, std::nullopt, std::nullopt, std::nullopt), 7);
}

// A call without tensors and without a Device argument has no backend, as
// in PyTorch: a CPU kernel does not serve it, a composite kernel does, and
// the error names the operator.
TEST(BackendSelect, NoTensorArgumentsNeedACompositeKernel) {
  auto def = FRAG("nt");
  def.def("total(Tensor[] xs) -> int");
  def.def("both(Tensor[] xs) -> int");
  auto cpu = IMPL("nt", CPU);
  cpu.impl("total", [](const std::vector<Tensor>&) -> int64_t { return 1; });
  auto cea = IMPL("nt", CompositeExplicitAutograd);
  cea.impl("both", [](const std::vector<Tensor>&) -> int64_t { return 2; });
  auto& d = Dispatcher::singleton();
  auto total = d.findSchemaOrThrow("nt::total", "").typed<int64_t(const std::vector<Tensor>&)>();
  EXPECT_EQ(total.call({tensorOn(DeviceType::CPU)}), 1);
  const std::string e = errorOf([&] { total.call({}); });
  EXPECT_NE(e.find("nt::total: There were no tensor arguments to this function"), std::string::npos)
      << e;
  EXPECT_NE(e.find("Available functions are [CPU]"), std::string::npos) << e;
  Stack s{IValue(std::vector<Tensor>{})};
  EXPECT_NE(errorOf([&] {
              d.findSchemaOrThrow("nt::total", "").callBoxed(&s);
            }).find("There were no tensor arguments"),
            std::string::npos);
  auto both = d.findSchemaOrThrow("nt::both", "").typed<int64_t(const std::vector<Tensor>&)>();
  EXPECT_EQ(both.call({}), 2);
}

TEST(BackendSelect, ComputeDispatchKey) {
  EXPECT_EQ(computeDispatchKey(std::nullopt, std::nullopt, std::nullopt), DispatchKey::CPU);
  EXPECT_EQ(computeDispatchKey(ScalarType::Float, Layout::Strided, Device(DeviceType::CUDA)),
            DispatchKey::CUDA);
  EXPECT_EQ(computeDispatchKey(std::nullopt, std::nullopt, Device(DeviceType::PrivateUse1)),
            DispatchKey::PrivateUse1);
  EXPECT_THROW(computeDispatchKey(std::nullopt, std::nullopt, Device(DeviceType::XLA)), Error);
}

// --- calling conventions -------------------------------------------------------------

Tensor addLike(const Tensor& a, const Tensor& b, int64_t alpha) {
  EXPECT_EQ(alpha, 3);
  return b.is_same(a) ? a : b;
}

TEST(CallTest, TypedAndBoxedCallsOfTypedAndBoxedKernels) {
  auto def = FRAG("calls");
  def.def("typed(Tensor a, Tensor b, int alpha=1) -> Tensor");
  def.def("boxed(Tensor a, Tensor b, int alpha=1) -> Tensor");
  def.def("pair(Tensor a) -> (Tensor, int)");
  def.def("nothing(Tensor a) -> ()");
  auto cpu = IMPL("calls", CPU);
  cpu.impl("typed", ST_FN(addLike));
  cpu.impl("boxed",
           CppFunction::makeFromBoxedLambda([](const OperatorHandle&, DispatchKeySet, Stack* s) {
             EXPECT_EQ(s->size(), 3u);
             EXPECT_EQ(s->at(2).toInt(), 3);
             IValue b = s->at(1);
             s->clear();
             s->push_back(std::move(b));
           }));
  cpu.impl("pair", [](const Tensor& a) { return std::make_tuple(a, int64_t{5}); });
  int calls = 0;
  cpu.impl("nothing", [&calls](const Tensor&) { ++calls; });
  auto& d = Dispatcher::singleton();
  Tensor a = tensorOn(DeviceType::CPU), b = tensorOn(DeviceType::CPU);
  for (const char* name : {"calls::typed", "calls::boxed"}) {
    SCOPED_TRACE(name);
    auto h = d.findSchemaOrThrow(name, "");
    Stack s{IValue(a), IValue(b), IValue(3)};
    h.callBoxed(&s);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_TRUE(s[0].toTensor().is_same(b));
    auto t = h.typed<Tensor(const Tensor&, const Tensor&, int64_t)>();
    EXPECT_TRUE(t.call(a, b, 3).is_same(b));
  }
  auto pair = d.findSchemaOrThrow("calls::pair", "");
  Stack s{IValue(a)};
  pair.callBoxed(&s);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].toInt(), 5);
  auto [t0, i1] = pair.typed<std::tuple<Tensor, int64_t>(const Tensor&)>().call(a);
  EXPECT_TRUE(t0.is_same(a));
  EXPECT_EQ(i1, 5);
  auto nothing = d.findSchemaOrThrow("calls::nothing", "");
  Stack s2{IValue(a)};
  nothing.callBoxed(&s2);
  EXPECT_TRUE(s2.empty());
  nothing.typed<void(const Tensor&)>().call(a);
  EXPECT_EQ(calls, 2);
}

// The adapter of a typed kernel writes the result over its first argument
// and drops the others; what lies below the arguments stays.
TEST(CallTest, BoxedCallReplacesOnlyItsOwnArguments) {
  auto def = FRAG("below");
  def.def("op(Tensor a, Tensor b, int alpha=1) -> Tensor");
  auto cpu = IMPL("below", CPU);
  cpu.impl("op", ST_FN(addLike));
  Tensor a = tensorOn(DeviceType::CPU), b = tensorOn(DeviceType::CPU);
  Stack s{IValue("under"), IValue(int64_t{7}), IValue(a), IValue(b), IValue(3)};
  Dispatcher::singleton().findSchemaOrThrow("below::op", "").callBoxed(&s);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].toStringRef(), "under");
  EXPECT_EQ(s[1].toInt(), 7);
  EXPECT_TRUE(s[2].toTensor().is_same(b));
  EXPECT_EQ(a.use_count(), 1u);  // the stack no longer holds a
}

TEST(CallTest, TypedHandleChecksSignature) {
  auto def = FRAG("sig");
  def.def("op(Tensor a, int n) -> Tensor");
  auto cpu = IMPL("sig", CPU);
  cpu.impl("op", [](const Tensor& t, int64_t) { return t; });
  auto h = Dispatcher::singleton().findSchemaOrThrow("sig::op", "");
  std::string e = errorOf([&] { h.typed<Tensor(const Tensor&, double)>(); });
  EXPECT_NE(e.find("does not fit its schema"), std::string::npos) << e;
  e = errorOf([&] { h.typed<Tensor(Tensor, int64_t)>(); });
  EXPECT_NE(e.find("has C++ signature"), std::string::npos) << e;
  // A second typed kernel with another C++ signature is refused.
  auto cuda = IMPL("sig", CUDA);
  e = errorOf([&] { cuda.impl("op", [](Tensor t, int64_t) { return t; }); });
  EXPECT_NE(e.find("must share one C++ signature"), std::string::npos) << e;
}

TEST(CallTest, TablesCarryAFreshIdAndTheOperatorsCppSignature) {
  // What the C ABI relies on to call unboxed entry points (Note [Calling
  // typed kernels unboxed] in c_api/src/call_dispatcher.cpp).
  auto def = FRAG("tid");
  def.def("op(Tensor a) -> Tensor");
  OperatorHandle h = Dispatcher::singleton().findSchemaOrThrow("tid::op", "");
  const auto table = [&] {
    DispatchReadGuard guard;
    const DispatchTable& t = h.entry()->table();
    return std::make_pair(t.id, t.cpp_signature);
  };
  const auto [boxed_only_id, no_sig] = table();
  EXPECT_FALSE(no_sig.has_value()) << "no typed kernel yet";
  {
    auto cpu = IMPL("tid", CPU);
    cpu.impl("op", [](const Tensor& t) { return t; });
    const auto [typed_id, sig] = table();
    EXPECT_NE(typed_id, boxed_only_id);
    ASSERT_TRUE(sig.has_value());
    EXPECT_TRUE(*sig == CppSignature::make<Tensor(const Tensor&)>());
    EXPECT_FALSE(*sig == CppSignature::make<Tensor(Tensor)>());
  }
  // The typed kernel is gone: a new table, and no signature to vouch for.
  const auto [after_id, after_sig] = table();
  EXPECT_NE(after_id, boxed_only_id);
  EXPECT_FALSE(after_sig.has_value());
}

TEST(CallTest, UnboxedEntryPointsComeWithTheirSignature) {
  auto def = FRAG("unsig");
  def.def("op(Tensor a) -> Tensor");
  Dispatcher& d = Dispatcher::singleton();
  const KernelFunction typed =
      KernelFunction::makeFromUnboxedLambda([](const Tensor& t) { return t; });
  std::string e = errorOf([&] {
    d.registerImpl(OperatorName("unsig::op", ""), DispatchKey::CPU, typed, std::nullopt, nullptr,
                   "test");
  });
  EXPECT_NE(e.find("unsig::op"), std::string::npos) << e;
  EXPECT_NE(e.find("needs its C++ signature"), std::string::npos) << e;
  e = errorOf([&] { d.registerFallback(DispatchKey::CPU, typed, "test"); });
  EXPECT_NE(e.find("fallback for CPU"), std::string::npos) << e;
  EXPECT_NE(e.find("must be a boxed kernel"), std::string::npos) << e;
}

TEST(CallTest, StackUnderflowIsAnError) {
  auto def = FRAG("under");
  def.def("op(Tensor a, int n) -> Tensor");
  auto cpu = IMPL("under", CPU);
  cpu.impl("op", [](const Tensor& t, int64_t) { return t; });
  Stack s{IValue(tensorOn(DeviceType::CPU))};
  std::string e =
      errorOf([&] { Dispatcher::singleton().findSchemaOrThrow("under::op", "").callBoxed(&s); });
  EXPECT_NE(e.find("the schema has 2 argument(s) but the stack holds 1"), std::string::npos) << e;
}

}  // namespace
}  // namespace st
