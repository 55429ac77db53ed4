// Threads calling operators while other threads register and deregister
// kernels, operators and fallbacks, and the reclamation of replaced dispatch
// tables. Must pass under ThreadSanitizer (Note [Publishing and reclaiming
// dispatch tables]).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
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

// Replaced tables are reclaimed while two threads call through them.
TEST(DispatcherConcurrency, CallsWhileReplacedTablesAreFreed) {
  WarningHandler previous = set_warning_handler([](const std::string&) {});
  Library def(Library::FRAGMENT, "conc_free", std::nullopt, __FILE__, __LINE__);
  def.def("op(Tensor self) -> int");
  Library base(Library::IMPL, "conc_free", DispatchKey::CPU, __FILE__, __LINE__);
  base.impl("op", ST_FN(ret<1>));
  auto& d = Dispatcher::singleton();
  auto typed = d.findSchemaOrThrow("conc_free::op", "").typed<int64_t(const Tensor&)>();
  std::atomic<bool> done{false};
  std::atomic<int64_t> bad{0};
  auto caller = [&] {
    Tensor t = testing::tensorOn(DeviceType::CPU);
    Stack s;
    while (!done.load(std::memory_order_relaxed)) {
      const int64_t r = typed.call(t);
      if (r != 1 && r != 2) bad.fetch_add(1);
      s.clear();
      s.emplace_back(t);
      typed.callBoxed(&s);
      if (s.size() != 1 || (s[0].toInt() != 1 && s[0].toInt() != 2)) bad.fetch_add(1);
    }
  };
  std::thread c1(caller), c2(caller);
  for (int i = 0; i < 300; ++i) {
    {
      // A functor kernel, so that freeing a table also frees a functor.
      Library lib(Library::IMPL, "conc_free", DispatchKey::CPU, __FILE__, __LINE__);
      auto token = std::make_shared<int64_t>(2);
      lib.impl("op",
               CppFunction::makeFromBoxedLambda([token](const OperatorHandle&, DispatchKeySet,
                                                        Stack* s) { s->back() = IValue(*token); }));
    }
    d.reclaimRetiredTables();
  }
  done = true;
  c1.join();
  c2.join();
  set_warning_handler(std::move(previous));
  EXPECT_EQ(bad.load(), 0);
  d.checkInvariants();
}

// Note [Publishing and reclaiming dispatch tables]: a thread still running
// a kernel of a table that was replaced meanwhile (a plugin unloading under
// it) keeps that table, and the kernel's functor, alive until it returns;
// then the next grace period frees them.
TEST(DispatcherConcurrency, ACallerInsideAKernelKeepsItsTableAlive) {
  auto& d = Dispatcher::singleton();
  Library def(Library::FRAGMENT, "conc_inside", std::nullopt, __FILE__, __LINE__);
  def.def("op(Tensor self) -> int");
  auto token = std::make_shared<int64_t>(7);
  std::weak_ptr<int64_t> watch = token;
  std::atomic<int> stage{0};
  auto impl =
      std::make_unique<Library>(Library::IMPL, "conc_inside", DispatchKey::CPU, __FILE__, __LINE__);
  impl->impl("op", CppFunction::makeFromBoxedLambda(
                       [token, &stage](const OperatorHandle&, DispatchKeySet, Stack* s) {
                         stage.store(1);
                         while (stage.load() != 2) std::this_thread::yield();
                         s->back() = IValue(*token);
                       }));
  token.reset();
  OperatorHandle op = d.findSchemaOrThrow("conc_inside::op", "");
  int64_t result = 0;
  std::thread caller([&] {
    Stack s{IValue(testing::tensorOn(DeviceType::CPU))};
    op.callBoxed(&s);
    result = s.at(0).toInt();
  });
  while (stage.load() != 1) std::this_thread::yield();
  impl.reset();  // the kernel's table is replaced while the caller is inside
  d.reclaimRetiredTables();
  EXPECT_FALSE(watch.expired()) << "freed under a running caller";
  stage.store(2);
  caller.join();
  EXPECT_EQ(result, 7);
  d.reclaimRetiredTables();
  if (d.retiredTableStats().reclaiming) {
    EXPECT_TRUE(watch.expired()) << "not freed once no caller could see it";
    EXPECT_EQ(d.retiredTableStats().waiting, 0u);
  }
}

// Registering and deregistering the same operators round after round (a
// host loading and unloading a plugin) leaves no more retired tables behind
// than one grace period's batch: memory stays flat.
TEST(DispatcherConcurrency, RetiredTablesStayBoundedAcrossRegistrationRounds) {
  auto& d = Dispatcher::singleton();
  if (!d.retiredTableStats().reclaiming) GTEST_SKIP() << "no membarrier: tables are kept";
  d.reclaimRetiredTables();
  const auto before = d.retiredTableStats();
  size_t most_waiting = 0;
  constexpr int kRounds = 30;
  constexpr int kOps = 100;
  for (int round = 0; round < kRounds; ++round) {
    {
      Library def(Library::FRAGMENT, "conc_rounds", std::nullopt, __FILE__, __LINE__);
      Library impl(Library::IMPL, "conc_rounds", DispatchKey::CPU, __FILE__, __LINE__);
      for (int i = 0; i < kOps; ++i) {
        const std::string name = "op" + std::to_string(i);
        def.def(name + "(Tensor self) -> int");
        impl.impl(name, ST_FN(ret<1>));
      }
    }
    most_waiting = std::max(most_waiting, d.retiredTableStats().waiting);
  }
  const auto after = d.retiredTableStats();
  // def, impl and their two removals each replace one table per operator
  // (but a new entry's first table replaces the shared empty one).
  EXPECT_GE(after.retired - before.retired, uint64_t{4} * kOps * (kRounds - 1));
  EXPECT_LT(most_waiting, size_t{1024}) << "retired tables accumulate";
  d.reclaimRetiredTables();
  const auto end = d.retiredTableStats();
  EXPECT_EQ(end.waiting, 0u);
  EXPECT_EQ(end.freed, end.retired);
}

}  // namespace
}  // namespace st
