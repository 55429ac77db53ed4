// The C++ side of bench/bench_python.py: the same 1-element `a + b` the
// Python operator runs, timed in a C++ loop in this process, so the Python
// overhead is measured against the core's own call cost on the same run.
#include <chrono>

#include <st/dispatch/dispatcher.h>
#include <st/generated/functions.h>

#include "bindings.h"

namespace stpy {

void bind_timing(nb::module_& m) {
  m.def(
      "_time_cpp_add",
      [](const st::Tensor& a, const st::Tensor& b, int64_t iterations) {
        if (iterations <= 0) throw nb::value_error("iterations must be positive");
        nb::gil_scoped_release release;
        const auto start = std::chrono::steady_clock::now();
        for (int64_t i = 0; i < iterations; ++i) {
          st::Tensor r = st::add(a, b);
          (void)r;
        }
        const auto ns =
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
                .count();
        return ns / static_cast<double>(iterations);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("iterations"),
      "Mean nanoseconds of st::add(a, b) called from C++ (benchmarks only).");
  m.def(
      "_time_cpp_boxed_add",
      [](const st::Tensor& a, const st::Tensor& b, int64_t iterations) {
        if (iterations <= 0) throw nb::value_error("iterations must be positive");
        const st::OperatorHandle op =
            st::Dispatcher::singleton().findSchemaOrThrow("aten::add", "Tensor");
        nb::gil_scoped_release release;
        st::Stack stack;
        const auto start = std::chrono::steady_clock::now();
        for (int64_t i = 0; i < iterations; ++i) {
          stack.clear();
          stack.emplace_back(a);
          stack.emplace_back(b);
          stack.emplace_back(st::Scalar(int64_t{1}));
          op.callBoxed(&stack);
        }
        const auto ns =
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
                .count();
        return ns / static_cast<double>(iterations);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("iterations"),
      "Mean nanoseconds of a boxed aten::add.Tensor call from C++, the way the "
      "generated Python functions call (benchmarks only).");
}

}  // namespace stpy
