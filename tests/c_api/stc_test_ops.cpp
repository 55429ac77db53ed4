#include "stc_test_ops.h"

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

// The three libraries live in one function-local static: registered on
// first use and deregistered at exit (the dispatcher is never destroyed).
// Heap-allocated libraries behind static pointers used to leak on purpose,
// but the optimizer drops a pointer nobody reads, so LeakSanitizer saw
// unreachable memory.
struct TestOps {
  st::Library def{st::Library::DEF, "stc_test", std::nullopt, __FILE__, __LINE__};
  st::Library impl{st::Library::IMPL, "stc_test", st::DispatchKey::CPU, __FILE__, __LINE__};
  st::Library composite{st::Library::IMPL, "stc_test", st::DispatchKey::CompositeExplicitAutograd,
                        __FILE__, __LINE__};

  TestOps() {
    def.def("noop(Tensor t) -> Tensor");
    def.def(
        "echo(Tensor t, int i, float f, bool b, str s, ScalarType d, Layout l, MemoryFormat m, "
        "Device dev, Scalar sc, Tensor? ot, int? oi, int[] il, Tensor[] tl, float[] fl, bool[] bl, "
        "str[] sl, SymInt si, Tensor?[] otl) -> (Tensor, int, float, bool, str, ScalarType, "
        "Layout, "
        "MemoryFormat, Device, Scalar, Tensor?, int?, int[], Tensor[], float[], bool[], str[], "
        "SymInt, Tensor?[])");
    def.def("two(Tensor a, Tensor b) -> Tensor");
    def.def("throws(Tensor t) -> Tensor");
    def.def("wrong_return(Tensor t) -> Tensor");
    def.def("gen(Generator? g) -> ()");
    def.def("nothing() -> ()");

    impl.impl("noop", [](const st::Tensor& t) { return t; });
    impl.impl("two", [](const st::Tensor& a, const st::Tensor&) { return a; });
    impl.impl("throws", [](const st::Tensor&) -> st::Tensor { ST_ERROR("boom"); });
    impl.impl("wrong_return", st::CppFunction::makeFromBoxedFunction(&wrong_return_kernel));

    composite.impl("echo", st::CppFunction::makeFromBoxedFunction(&echo_kernel));
    composite.impl("gen", st::CppFunction::makeFromBoxedFunction(&gen_kernel));
    composite.impl("nothing", st::CppFunction::makeFromBoxedFunction(&nothing_kernel));
  }
};

void register_test_ops() { static TestOps ops; }

}  // namespace stc_test
