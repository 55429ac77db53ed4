// Tests for st::Library and the ST_LIBRARY macros.
#include <gtest/gtest.h>

#include <memory>

#include <st/dispatch/library.h>

#include "dispatch/dispatch_test_util.h"

namespace st {
namespace {

using testing::errorOf;
using testing::tensorOn;

int64_t libStatic(const Tensor&) { return 42; }

}  // namespace
}  // namespace st

// Static registration, as extensions and generated code do it. The IMPL
// comes first in this file: registration order is free.
ST_LIBRARY_IMPL(libtest_static, CPU, m) { m.impl("op", ST_FN(st::libStatic)); }
ST_LIBRARY(libtest_static, m) { m.def("op(Tensor self) -> int"); }
ST_LIBRARY_FRAGMENT(libtest_static, m) { m.def("frag1(Tensor self) -> int"); }
ST_LIBRARY_FRAGMENT(libtest_static, m) { m.def("frag2(Tensor self) -> int"); }
ST_LIBRARY_IMPL(libtest_static, XLA, m) { m.impl("op", ST_FN(st::libStatic)); }

namespace st {
namespace {

TEST(LibraryTest, StaticMacrosRegister) {
  auto& d = Dispatcher::singleton();
  auto op = d.findSchemaOrThrow("libtest_static::op", "").typed<int64_t(const Tensor&)>();
  EXPECT_EQ(op.call(tensorOn(DeviceType::CPU)), 42);
  EXPECT_TRUE(d.findSchema(OperatorName("libtest_static::frag1", "")).has_value());
  EXPECT_TRUE(d.findSchema(OperatorName("libtest_static::frag2", "")).has_value());
}

TEST(LibraryTest, NamespaceDefinedOnceErrorNamesBothPlaces) {
  std::string e =
      errorOf([] { Library again(Library::DEF, "libtest_static", std::nullopt, "other.cpp", 7); });
  EXPECT_NE(e.find("only one ST_LIBRARY may define namespace 'libtest_static'"), std::string::npos)
      << e;
  EXPECT_NE(e.find("test_library.cpp:"), std::string::npos) << e;
  EXPECT_NE(e.find("registered at other.cpp:7"), std::string::npos) << e;
}

TEST(LibraryTest, DestroyingALibraryDeregistersEverything) {
  auto& d = Dispatcher::singleton();
  {
    auto lib = std::make_unique<Library>(Library::DEF, "libtest_rt", std::nullopt, "rt.cpp", 1);
    lib->def("a(Tensor self) -> Tensor", [](const Tensor& t) { return t; });
    lib->def("b(Tensor self) -> Tensor");
    auto impl = std::make_unique<Library>(Library::IMPL, "libtest_rt", std::string_view("CPU"),
                                          "rt.cpp", 2);
    impl->impl("b", [](const Tensor& t) { return t; });
    EXPECT_TRUE(d.findSchema(OperatorName("libtest_rt::a", "")).has_value());
    auto b = d.findSchemaOrThrow("libtest_rt::b", "");
    Stack s{IValue(tensorOn(DeviceType::CPU))};
    b.callBoxed(&s);
    impl.reset();
    EXPECT_NE(errorOf([&] {
                Stack s2{IValue(tensorOn(DeviceType::CPU))};
                b.callBoxed(&s2);
              }).find("has no kernel for CPU"),
              std::string::npos);
    lib.reset();
    EXPECT_FALSE(d.findSchema(OperatorName("libtest_rt::a", "")).has_value());
    EXPECT_FALSE(d.findOp(OperatorName("libtest_rt::b", "")).has_value());
  }
  // The namespace is free again.
  Library again(Library::DEF, "libtest_rt", std::nullopt, "rt.cpp", 3);
  again.def("a(Tensor self) -> Tensor");
}

TEST(LibraryTest, DefInfersSchemaFromKernel) {
  Library lib(Library::FRAGMENT, "libtest_infer", std::nullopt, __FILE__, __LINE__);
  lib.def("scale",
          [](const Tensor& t, double, std::optional<int64_t>, std::vector<int64_t>) { return t; });
  auto h = Dispatcher::singleton().findSchemaOrThrow("libtest_infer::scale", "");
  EXPECT_EQ(h.schema().toString(),
            "libtest_infer::scale(Tensor _0, float _1, int? _2, int[] _3) -> Tensor");
}

TEST(LibraryTest, NamespaceAndKindChecks) {
  Library lib(Library::FRAGMENT, "libtest_ns", std::nullopt, __FILE__, __LINE__);
  std::string e = errorOf([&] { lib.def("other::op(Tensor self) -> Tensor"); });
  EXPECT_NE(e.find("is in namespace 'other' but the library is for namespace 'libtest_ns'"),
            std::string::npos)
      << e;
  lib.def("libtest_ns::op(Tensor self) -> Tensor");
  Library impl(Library::IMPL, "libtest_ns", DispatchKey::CPU, __FILE__, __LINE__);
  e = errorOf([&] { impl.def("x(Tensor self) -> Tensor"); });
  EXPECT_NE(e.find("an IMPL library cannot define operators"), std::string::npos) << e;
  e = errorOf(
      [&] { impl.impl("op", dispatch(DispatchKey::CUDA, [](const Tensor& t) { return t; })); });
  EXPECT_NE(e.find("pinned to CUDA but the library is for CPU"), std::string::npos) << e;
  e = errorOf([&] { lib.fallback(CppFunction::makeFallthrough()); });
  EXPECT_NE(e.find("only an IMPL library"), std::string::npos) << e;
  e = errorOf([&] { Library bad(Library::DEF, "libtest_ns2", std::string_view("XLA"), "f", 1); });
  EXPECT_NE(e.find("unknown dispatch key 'XLA'"), std::string::npos) << e;
  e = errorOf([&] { lib.def("bad(Tensor self) ->"); });
  EXPECT_NE(e.find("schema parse error at column"), std::string::npos) << e;
}

TEST(LibraryTest, DefStoresTagsOnTheOperator) {
  Library lib(Library::FRAGMENT, "libtest_tags", std::nullopt, __FILE__, __LINE__);
  lib.def("plain(Tensor self) -> Tensor");
  lib.def("tagged(Tensor self) -> Tensor", {Tag::pointwise, Tag::pt2_compliant_tag});
  std::vector<Tag> tags{Tag::inplace_view};
  lib.def("lvalue(Tensor(a!) self) -> Tensor(a!)",
          tags);  // an lvalue vector picks the tags overload
  auto& d = Dispatcher::singleton();
  auto plain = d.findSchemaOrThrow("libtest_tags::plain", "");
  auto tagged = d.findSchemaOrThrow("libtest_tags::tagged", "");
  EXPECT_TRUE(plain.tags().empty());
  EXPECT_EQ(tagged.tags(), (std::vector<Tag>{Tag::pointwise, Tag::pt2_compliant_tag}));
  EXPECT_TRUE(tagged.hasTag(Tag::pointwise));
  EXPECT_FALSE(tagged.hasTag(Tag::reduction));
  EXPECT_EQ(d.findSchemaOrThrow("libtest_tags::lvalue", "").tags(), tags);
  const std::string state = tagged.dumpState();
  EXPECT_NE(state.find("tags: pointwise, pt2_compliant_tag\n"), std::string::npos) << state;
  EXPECT_EQ(plain.dumpState().find("\ntags:"), std::string::npos);
}

TEST(LibraryTest, TagsGoWithTheirDef) {
  auto& d = Dispatcher::singleton();
  {
    Library lib(Library::FRAGMENT, "libtest_tags_gone", std::nullopt, __FILE__, __LINE__);
    lib.def("op(Tensor self) -> Tensor", {Tag::reduction});
  }
  EXPECT_FALSE(d.findSchema(OperatorName("libtest_tags_gone::op", "")).has_value());
  Library again(Library::FRAGMENT, "libtest_tags_gone", std::nullopt, __FILE__, __LINE__);
  again.def("op(Tensor self) -> Tensor");
  EXPECT_TRUE(d.findSchemaOrThrow("libtest_tags_gone::op", "").tags().empty());
}

TEST(LibraryTest, PythonModuleAppliesToLaterDefsAndNamesItWhenAKernelIsMissing) {
  Library lib(Library::FRAGMENT, "libtest_pymod", std::nullopt, __FILE__, __LINE__);
  lib.def("before(Tensor self) -> Tensor");
  lib.set_python_module("libtest_pymod.ops", "fake kernels");
  lib.def("after(Tensor self) -> Tensor");
  auto& d = Dispatcher::singleton();
  auto before = d.findSchemaOrThrow("libtest_pymod::before", "");
  auto after = d.findSchemaOrThrow("libtest_pymod::after", "");
  EXPECT_FALSE(before.pythonModule().has_value());
  ASSERT_TRUE(after.pythonModule().has_value());
  EXPECT_EQ(after.pythonModule()->module, "libtest_pymod.ops");
  EXPECT_EQ(after.pythonModule()->context, "fake kernels");
  EXPECT_NE(after.dumpState().find("python module: libtest_pymod.ops (fake kernels)\n"),
            std::string::npos);

  std::string e = errorOf([&] {
    Stack s{IValue(tensorOn(DeviceType::CPU))};
    after.callBoxed(&s);
  });
  EXPECT_NE(e.find("has no kernel for CPU"), std::string::npos) << e;
  EXPECT_NE(e.find("Python-side registrations live in module 'libtest_pymod.ops' (fake "
                   "kernels); import it first"),
            std::string::npos)
      << e;
  e = errorOf([&] {
    Stack s{IValue(tensorOn(DeviceType::CPU))};
    before.callBoxed(&s);
  });
  EXPECT_EQ(e.find("Python"), std::string::npos) << e;

  e = errorOf([&] { lib.set_python_module(""); });
  EXPECT_NE(e.find("empty Python module name"), std::string::npos) << e;
}

}  // namespace
}  // namespace st
