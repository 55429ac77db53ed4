// Threads calling operators while other threads register and deregister
// kernels, operators and fallbacks. Must pass under ThreadSanitizer (Note
// [Publishing and reclaiming dispatch tables]).
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <st/core/warning.h>
#include <st/dispatch/dispatcher.h>
#include <st/dispatch/library.h>

#include "dispatch/dispatch_test_util.h"

namespace st {
namespace {

template <int64_t id>
int64_t ret(const Tensor&) {
  return id;
}

TEST(DispatcherConcurrency, CallsDuringRegistration) {
  WarningHandler previous = set_warning_handler([](const std::string&) {});
  Library def(Library::FRAGMENT, "conc", std::nullopt, __FILE__, __LINE__);
  def.def("op(Tensor self) -> int");
  Library base(Library::IMPL, "conc", DispatchKey::CPU, __FILE__, __LINE__);
  base.impl("op", ST_FN(ret<1>));

  auto& d = Dispatcher::singleton();
  auto typed = d.findSchemaOrThrow("conc::op", "").typed<int64_t(const Tensor&)>();
  OperatorHandle boxed = d.findSchemaOrThrow("conc::op", "");
  std::atomic<bool> done{false};
  std::atomic<int64_t> calls{0};
  std::atomic<int64_t> bad{0};

  auto caller = [&] {
    Tensor t = testing::tensorOn(DeviceType::CPU);
    Stack s;
    while (!done.load(std::memory_order_relaxed)) {
      int64_t r = typed.call(t);
      if (r != 1 && r != 2) bad.fetch_add(1);
      s.clear();
      s.emplace_back(t);
      boxed.callBoxed(&s);
      if (s.size() != 1 || (s[0].toInt() != 1 && s[0].toInt() != 2)) bad.fetch_add(1);
      calls.fetch_add(2, std::memory_order_relaxed);
    }
  };
  auto overrider = [&] {
    for (int i = 0; i < 300; ++i) {
      Library lib(Library::IMPL, "conc", DispatchKey::CPU, __FILE__, __LINE__);
      lib.impl("op", ST_FN(ret<2>));
      std::this_thread::yield();
    }
  };
  auto other_ops = [&] {
    for (int i = 0; i < 300; ++i) {
      Library lib(Library::FRAGMENT, "conc_other", std::nullopt, __FILE__, __LINE__);
      std::string name = "op" + std::to_string(i % 7);
      lib.def(name + "(Tensor self) -> int", ST_FN(ret<3>));
      auto h = d.findSchemaOrThrow("conc_other::" + name, "");
      Stack s{IValue(testing::tensorOn(DeviceType::CPU))};
      h.callBoxed(&s);
      if (s.at(0).toInt() != 3) bad.fetch_add(1);
      (void)d.getAllOpNames();
    }
  };
  auto fallbacks = [&] {
    for (int i = 0; i < 100; ++i) {
      Library lib(Library::IMPL, "_", DispatchKey::PrivateUse1, __FILE__, __LINE__);
      lib.fallback(CppFunction::makeFromBoxedLambda(
          [](const OperatorHandle&, DispatchKeySet, Stack* s) { s->back() = IValue(9); }));
    }
  };

  std::vector<std::thread> threads;
  threads.emplace_back(caller);
  threads.emplace_back(caller);
  std::thread w1(overrider), w2(other_ops), w3(fallbacks);
  w1.join();
  w2.join();
  w3.join();
  done = true;
  for (auto& t : threads) t.join();
  set_warning_handler(std::move(previous));

  EXPECT_EQ(bad.load(), 0);
  EXPECT_GT(calls.load(), 0);
  EXPECT_EQ(typed.call(testing::tensorOn(DeviceType::CPU)), 1);
  d.checkInvariants();
}

}  // namespace
}  // namespace st
