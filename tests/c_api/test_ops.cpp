#include "test_ops.h"

#include <st/dispatch/library.h>

namespace stc_test {

namespace {
void echo_kernel(const st::OperatorHandle&, st::DispatchKeySet, st::Stack*) {}
void wrong_return_kernel(const st::OperatorHandle&, st::DispatchKeySet, st::Stack* s) {
  s->pop_back();
  s->emplace_back(int64_t{3});
}
void gen_kernel(const st::OperatorHandle&, st::DispatchKeySet, st::Stack* s) { s->pop_back(); }
void nothing_kernel(const st::OperatorHandle&, st::DispatchKeySet, st::Stack*) {}
}  // namespace

void register_test_ops() {
  static st::Library* def = [] {
    auto* lib = new st::Library(st::Library::DEF, "stc_test", std::nullopt, __FILE__, __LINE__);
    lib->def("noop(Tensor t) -> Tensor");
    lib->def(
        "echo(Tensor t, int i, float f, bool b, str s, ScalarType d, Layout l, MemoryFormat m, "
        "Device dev, Scalar sc, Tensor? ot, int? oi, int[] il, Tensor[] tl, float[] fl, bool[] bl, "
        "str[] sl, SymInt si, Tensor?[] otl) -> (Tensor, int, float, bool, str, ScalarType, Layout, "
        "MemoryFormat, Device, Scalar, Tensor?, int?, int[], Tensor[], float[], bool[], str[], "
        "SymInt, Tensor?[])");
    lib->def("two(Tensor a, Tensor b) -> Tensor");
    lib->def("throws(Tensor t) -> Tensor");
    lib->def("wrong_return(Tensor t) -> Tensor");
    lib->def("gen(Generator? g) -> ()");
    lib->def("nothing() -> ()");
    return lib;
  }();
  static st::Library* impl = [] {
    auto* lib = new st::Library(st::Library::IMPL, "stc_test", st::DispatchKey::CPU, __FILE__,
                                __LINE__);
    lib->impl("noop", [](const st::Tensor& t) { return t; });
    lib->impl("two", [](const st::Tensor& a, const st::Tensor&) { return a; });
    lib->impl("throws", [](const st::Tensor&) -> st::Tensor { ST_ERROR("boom"); });
    lib->impl("wrong_return", st::CppFunction::makeFromBoxedFunction(&wrong_return_kernel));
    return lib;
  }();
  static st::Library* composite = [] {
    auto* lib = new st::Library(st::Library::IMPL, "stc_test",
                                st::DispatchKey::CompositeExplicitAutograd, __FILE__, __LINE__);
    lib->impl("echo", st::CppFunction::makeFromBoxedFunction(&echo_kernel));
    lib->impl("gen", st::CppFunction::makeFromBoxedFunction(&gen_kernel));
    lib->impl("nothing", st::CppFunction::makeFromBoxedFunction(&nothing_kernel));
    return lib;
  }();
  (void)def;
  (void)impl;
  (void)composite;
}

}  // namespace stc_test
