// The table reclaimer (core/src/dispatch/table_reclaimer.cpp), through the
// dispatcher's retiredTableStats() / reclaimRetiredTables(): which read
// sections hold a grace period open (one running when it began, on this
// or another thread, nested or not) and which do not (one that began
// after), the automatic grace period once a batch of retired tables has
// built up, and the counters. A kernel functor owning a token shows when
// its table is freed. (Calls racing registrations, and memory staying flat
// over many rounds, are in test_dispatcher_concurrency.cpp.)
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include <st/dispatch/dispatcher.h>
#include <st/dispatch/library.h>
#include <st/dispatch/read_guard.h>

#include "dispatch/dispatch_test_util.h"

namespace st {
namespace {

template <int64_t id>
int64_t ret(const Tensor&) {
  return id;
}

// Defines ns::op with a CPU kernel owning `token`, then drops both
// registrations: every table they replaced is retired; the last one
// holding the kernel (and so the token) among them.
void registerAndDrop(const std::string& ns, std::shared_ptr<int64_t> token) {
  Library def(Library::FRAGMENT, ns, std::nullopt, __FILE__, __LINE__);
  def.def("op(Tensor self) -> int");
  Library impl(Library::IMPL, ns, DispatchKey::CPU, __FILE__, __LINE__);
  impl.impl("op",
            CppFunction::makeFromBoxedLambda([token](const OperatorHandle&, DispatchKeySet,
                                                     Stack* s) { s->back() = IValue(*token); }));
}

class TableReclaimer : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!d.retiredTableStats().reclaiming) GTEST_SKIP() << "no membarrier: tables are kept";
    d.reclaimRetiredTables();  // start from nothing waiting
    ASSERT_EQ(d.retiredTableStats().waiting, 0u);
  }
  Dispatcher& d = Dispatcher::singleton();
};

TEST_F(TableReclaimer, CountersAddUp) {
  const auto before = d.retiredTableStats();
  registerAndDrop("reclaim_counts", std::make_shared<int64_t>(1));
  const auto mid = d.retiredTableStats();
  // def and impl each replace a table; so do their two removals (the new
  // entry's first table replaces a shared empty one, which is not retired).
  EXPECT_GE(mid.retired - before.retired, 3u);
  EXPECT_EQ(mid.waiting, (mid.retired - before.retired) - (mid.freed - before.freed));
  d.reclaimRetiredTables();
  const auto after = d.retiredTableStats();
  EXPECT_EQ(after.retired, mid.retired);
  EXPECT_EQ(after.waiting, 0u);
  EXPECT_EQ(after.freed - before.freed, after.retired - before.retired);
}

TEST_F(TableReclaimer, OwnReadSectionKeepsTheBatchUntilItEnds) {
  auto token = std::make_shared<int64_t>(1);
  std::weak_ptr<int64_t> watch = token;
  {
    DispatchReadGuard guard;
    registerAndDrop("reclaim_own", std::move(token));
    d.reclaimRetiredTables();  // the grace period begins while this section runs
    EXPECT_FALSE(watch.expired());
    EXPECT_GT(d.retiredTableStats().waiting, 0u);
    d.reclaimRetiredTables();  // still running: still kept
    EXPECT_FALSE(watch.expired());
  }
  d.reclaimRetiredTables();
  EXPECT_TRUE(watch.expired());
  EXPECT_EQ(d.retiredTableStats().waiting, 0u);
}

TEST_F(TableReclaimer, NestedSectionsEndWithTheOutermost) {
  auto token = std::make_shared<int64_t>(2);
  std::weak_ptr<int64_t> watch = token;
  {
    DispatchReadGuard outer;
    {
      DispatchReadGuard inner;
      registerAndDrop("reclaim_nested", std::move(token));
      d.reclaimRetiredTables();
    }
    // the inner guard's end is not the section's end
    d.reclaimRetiredTables();
    EXPECT_FALSE(watch.expired());
  }
  d.reclaimRetiredTables();
  EXPECT_TRUE(watch.expired());
}

TEST_F(TableReclaimer, ReaderOnAnotherThreadHoldsTheBatch) {
  auto token = std::make_shared<int64_t>(3);
  std::weak_ptr<int64_t> watch = token;
  std::atomic<int> stage{0};
  std::thread reader([&] {
    DispatchReadGuard guard;
    stage.store(1);
    while (stage.load() != 2) std::this_thread::yield();
  });
  while (stage.load() != 1) std::this_thread::yield();
  registerAndDrop("reclaim_other", std::move(token));
  d.reclaimRetiredTables();
  EXPECT_FALSE(watch.expired()) << "freed while a section that began before was running";
  stage.store(2);
  reader.join();
  d.reclaimRetiredTables();
  EXPECT_TRUE(watch.expired());
}

TEST_F(TableReclaimer, SectionsBegunAfterTheGracePeriodDoNotHoldIt) {
  // Reader A is inside a section when the grace period begins; reader B
  // enters afterwards, so it can only have loaded the newer tables: once A
  // leaves, the batch is freed although B is still inside.
  auto token = std::make_shared<int64_t>(4);
  std::weak_ptr<int64_t> watch = token;
  std::atomic<int> a_stage{0};
  std::atomic<int> b_stage{0};
  std::thread a([&] {
    DispatchReadGuard guard;
    a_stage.store(1);
    while (a_stage.load() != 2) std::this_thread::yield();
  });
  while (a_stage.load() != 1) std::this_thread::yield();
  registerAndDrop("reclaim_late", std::move(token));
  d.reclaimRetiredTables();  // the grace period begins: A is running
  EXPECT_FALSE(watch.expired());
  std::thread b([&] {
    DispatchReadGuard guard;
    b_stage.store(1);
    while (b_stage.load() != 2) std::this_thread::yield();
  });
  while (b_stage.load() != 1) std::this_thread::yield();
  a_stage.store(2);
  a.join();
  d.reclaimRetiredTables();
  EXPECT_TRUE(watch.expired()) << "a section begun after the grace period held it";
  EXPECT_EQ(d.retiredTableStats().waiting, 0u);
  b_stage.store(2);
  b.join();
}

TEST_F(TableReclaimer, AFullBatchStartsAGracePeriodWithoutBeingAsked) {
  // Far more than one batch (256 tables) of retirements, and no call to
  // reclaimRetiredTables: registration itself frees the older tables.
  const auto before = d.retiredTableStats();
  {
    Library def(Library::FRAGMENT, "reclaim_batch", std::nullopt, __FILE__, __LINE__);
    Library impl(Library::IMPL, "reclaim_batch", DispatchKey::CPU, __FILE__, __LINE__);
    for (int i = 0; i < 200; ++i) {
      const std::string name = "op" + std::to_string(i);
      def.def(name + "(Tensor self) -> int");
      impl.impl(name, ST_FN(ret<1>));
    }
  }
  const auto after = d.retiredTableStats();
  EXPECT_GE(after.retired - before.retired, 600u);
  EXPECT_GT(after.freed, before.freed);
  EXPECT_LT(after.waiting, 2 * size_t{256});
}

TEST_F(TableReclaimer, ReclaimWithNothingRetiredIsANoOp) {
  const auto before = d.retiredTableStats();
  d.reclaimRetiredTables();
  d.reclaimRetiredTables();
  const auto after = d.retiredTableStats();
  EXPECT_EQ(after.retired, before.retired);
  EXPECT_EQ(after.freed, before.freed);
  EXPECT_EQ(after.waiting, 0u);
}

}  // namespace
}  // namespace st
