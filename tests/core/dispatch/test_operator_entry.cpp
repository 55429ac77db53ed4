// The operator entry (core/src/dispatch/operator_entry.cpp) through the
// dispatcher: what a published table records about the schema (argument
// count, which arguments carry tensors) and the registered keys, which
// table entries a kernel for each kind of key can change, the refusals
// (too many tensor arguments, the Undefined key, mixed composite keys) and
// the missing-schema message, and when the operator's C++ signature is
// forgotten or pinned. (Precedence rows, overriding, fallthrough, dumps and
// table ids are in test_dispatcher.cpp.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <st/dispatch/dispatcher.h>
#include <st/dispatch/library.h>
#include <st/dispatch/operator_entry.h>
#include <st/dispatch/read_guard.h>

#include "dispatch/dispatch_test_util.h"

namespace st {
namespace {

using testing::errorOf;
using testing::tensorOn;

template <int64_t id>
int64_t ret(const Tensor&) {
  return id;
}

Library frag(const char* ns) {
  return Library(Library::FRAGMENT, ns, std::nullopt, __FILE__, __LINE__);
}
Library impl(const char* ns, DispatchKey k) {
  return Library(Library::IMPL, ns, k, __FILE__, __LINE__);
}

struct TableView {
  uint32_t num_args;
  uint64_t tensor_arg_mask;
  uint32_t registered_keys;
  bool has_schema;
};

TableView tableOf(const char* name) {
  OperatorHandle h = *Dispatcher::singleton().findOp(OperatorName(name, ""));
  DispatchReadGuard guard;
  const DispatchTable& t = h.entry()->table();
  return TableView{t.num_args, t.tensor_arg_mask, t.registered_keys, t.schema != nullptr};
}

uint32_t bit(DispatchKey k) { return uint32_t{1} << static_cast<int>(k); }

TEST(OperatorEntry, TableRecordsWhichArgumentsCarryTensors) {
  auto def = frag("oe_args");
  def.def("op(int n, Tensor a, Tensor? b, float x, Tensor[] c, Tensor?[] d, Scalar s) -> Tensor");
  const TableView t = tableOf("oe_args::op");
  EXPECT_TRUE(t.has_schema);
  EXPECT_EQ(t.num_args, 7u);
  EXPECT_EQ(t.tensor_arg_mask, (1u << 1) | (1u << 2) | (1u << 4) | (1u << 5));
}

TEST(OperatorEntry, TableRecordsRegisteredKeysAndForgetsRemovedOnes) {
  auto def = frag("oe_keys");
  def.def("op(Tensor self) -> int");
  EXPECT_EQ(tableOf("oe_keys::op").registered_keys, 0u);
  {
    auto cpu = impl("oe_keys", DispatchKey::CPU);
    cpu.impl("op", ST_FN(ret<1>));
    {
      auto cuda = impl("oe_keys", DispatchKey::CUDA);
      cuda.impl("op", ST_FN(ret<2>));
      EXPECT_EQ(tableOf("oe_keys::op").registered_keys,
                bit(DispatchKey::CPU) | bit(DispatchKey::CUDA));
      const std::vector<DispatchKey> keys =
          Dispatcher::singleton().findSchemaOrThrow("oe_keys::op", "").registeredKernelKeys();
      EXPECT_EQ(keys, (std::vector<DispatchKey>{DispatchKey::CPU, DispatchKey::CUDA}));
    }
    EXPECT_EQ(tableOf("oe_keys::op").registered_keys, bit(DispatchKey::CPU));
  }
  EXPECT_EQ(tableOf("oe_keys::op").registered_keys, 0u);
}

TEST(OperatorEntry, KeysAffectedByEachKindOfKey) {
  // A backend kernel changes its own entry and its autograd key's.
  const DispatchKeySet cpu = OperatorEntry::keysAffectedBy(DispatchKey::CPU);
  EXPECT_TRUE(cpu.has(DispatchKey::CPU));
  EXPECT_TRUE(cpu.has(DispatchKey::AutogradCPU));
  EXPECT_FALSE(cpu.has(DispatchKey::CUDA));
  EXPECT_FALSE(cpu.has(DispatchKey::AutogradCUDA));
  // CompositeExplicitAutograd can change every entry.
  EXPECT_EQ(OperatorEntry::keysAffectedBy(DispatchKey::CompositeExplicitAutograd),
            DispatchKeySet::full());
  // CompositeImplicitAutograd: the backends and their autograd keys.
  const DispatchKeySet implicit =
      OperatorEntry::keysAffectedBy(DispatchKey::CompositeImplicitAutograd);
  for (DispatchKey k : {DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::AutogradCPU}) {
    EXPECT_TRUE(implicit.has(k)) << k;
  }
  // The Autograd alias: autograd keys, not backends.
  const DispatchKeySet autograd = OperatorEntry::keysAffectedBy(DispatchKey::Autograd);
  EXPECT_TRUE(autograd.has(DispatchKey::AutogradCPU));
  EXPECT_FALSE(autograd.has(DispatchKey::CPU));
}

TEST(OperatorEntry, MoreThanSixtyFourTensorArgumentsAreRefused) {
  std::string schema = "op(";
  for (int i = 0; i < 65; ++i) schema += (i ? ", Tensor t" : "Tensor t") + std::to_string(i);
  schema += ") -> Tensor";
  auto def = frag("oe_many");
  EXPECT_NE(errorOf([&] { def.def(schema); })
                .find("operator 'oe_many::op': Tensor arguments after the 64th are not supported "
                      "(argument 64)"),
            std::string::npos);
  // 64 tensors and more non-tensor arguments are fine.
  std::string ok = "ok(";
  for (int i = 0; i < 64; ++i) ok += "Tensor t" + std::to_string(i) + ", ";
  ok += "int a, int b) -> Tensor";
  def.def(ok);
  const TableView t = tableOf("oe_many::ok");
  EXPECT_EQ(t.num_args, 66u);
  EXPECT_EQ(t.tensor_arg_mask, ~uint64_t{0});
}

TEST(OperatorEntry, KernelsWithoutASchemaNameTheirKeysOnLookup) {
  auto cpu = impl("oe_noschema", DispatchKey::CPU);
  cpu.impl("op", ST_FN(ret<1>));
  auto cuda = impl("oe_noschema", DispatchKey::CUDA);
  cuda.impl("op", ST_FN(ret<2>));
  OperatorHandle h = *Dispatcher::singleton().findOp(OperatorName("oe_noschema::op", ""));
  // A call is refused before any lookup.
  Stack s{IValue(tensorOn(DeviceType::CPU))};
  EXPECT_EQ(errorOf([&] { h.callBoxed(&s); }),
            "operator 'oe_noschema::op' has no schema: it was never def'd (or its def was "
            "removed)");
  // A lookup for a key without a kernel lists the keys that have one.
  DispatchReadGuard guard;
  const DispatchTable& t = h.entry()->table();
  EXPECT_EQ(errorOf([&] { (void)h.entry()->lookup(t, DispatchKeySet(DispatchKey::Meta)); }),
            "operator 'oe_noschema::op' has no schema: it was never def'd (or its def was "
            "removed); it has kernels for: CPU, CUDA");
  // With a key that has one, the lookup finds it although there is no schema.
  EXPECT_TRUE(h.entry()->lookup(t, DispatchKeySet(DispatchKey::CPU)).isValid());
}

TEST(OperatorEntry, CompositeKeysExcludeEachOtherEitherWay) {
  auto def = frag("oe_comp");
  def.def("op(Tensor self) -> int");
  {
    auto explicit_lib = impl("oe_comp", DispatchKey::CompositeExplicitAutograd);
    explicit_lib.impl("op", ST_FN(ret<1>));
    auto implicit_lib = impl("oe_comp", DispatchKey::CompositeImplicitAutograd);
    const std::string e = errorOf([&] { implicit_lib.impl("op", ST_FN(ret<2>)); });
    EXPECT_NE(e.find("operator 'oe_comp::op': cannot register a CompositeImplicitAutograd kernel"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("because it already has a CompositeExplicitAutograd kernel"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("an operator is either implicitly or explicitly composite"), std::string::npos)
        << e;
  }
  // Once the explicit kernel is gone, the implicit one is accepted.
  auto implicit_lib = impl("oe_comp", DispatchKey::CompositeImplicitAutograd);
  implicit_lib.impl("op", ST_FN(ret<3>));
  Stack s{IValue(tensorOn(DeviceType::CPU))};
  Dispatcher::singleton().findSchemaOrThrow("oe_comp::op", "").callBoxed(&s);
  EXPECT_EQ(s.at(0).toInt(), 3);
}

TEST(OperatorEntry, CppSignatureIsForgottenWithItsLastTypedKernelUnlessPinned) {
  auto def = frag("oe_sig");
  def.def("op(Tensor a) -> Tensor");
  {
    auto cpu = impl("oe_sig", DispatchKey::CPU);
    cpu.impl("op", [](const Tensor& t) { return t; });
  }
  // The first kernel's signature left with it: another one is accepted.
  {
    auto cpu = impl("oe_sig", DispatchKey::CPU);
    cpu.impl("op", [](Tensor t) { return t; });
    // A typed handle pins the signature for good.
    (void)Dispatcher::singleton().findSchemaOrThrow("oe_sig::op", "").typed<Tensor(Tensor)>();
  }
  auto cpu = impl("oe_sig", DispatchKey::CPU);
  const std::string e = errorOf([&] { cpu.impl("op", [](const Tensor& t) { return t; }); });
  EXPECT_NE(e.find("all typed kernels of an operator must share one C++ signature"),
            std::string::npos)
      << e;
  // A boxed kernel has no C++ signature and is always accepted.
  cpu.impl("op",
           CppFunction::makeFromBoxedLambda([](const OperatorHandle&, DispatchKeySet, Stack*) {}));
}

}  // namespace
}  // namespace st
