#include "table_reclaimer.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <utility>

#include <pthread.h>

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <st/dispatch/read_guard.h>

namespace st {
namespace detail {

__thread uint64_t t_read_seq = 0;

namespace {

// Every thread that has entered a read section, until it exits. Ids are
// never reused, so a grace period that waits on an exited thread's id
// cannot confuse it with a new thread.
struct Reader {
  uint64_t id;
  uint64_t* seq;  // the thread's t_read_seq
};

struct ReaderRegistry {
  std::mutex mutex;
  std::vector<Reader> readers;
  uint64_t next_id = 1;
  pthread_key_t key{};  // its value on a registered thread: the reader id
};

void unregisterReader(void* id_as_ptr) noexcept;

ReaderRegistry& registry() {
  // Leaked: threads may exit (and unregister) after static destruction.
  static ReaderRegistry* r = [] {
    auto* reg = new ReaderRegistry();
    pthread_key_create(&reg->key, &unregisterReader);
    return reg;
  }();
  return *r;
}

// Thread exit (pthread key destructors run after the C++ thread_local
// destructors, which may still call operators): the thread's TLS is about
// to go, so writers must stop reading it. A call after this (from another
// key's destructor) registers the thread again.
void unregisterReader(void* id_as_ptr) noexcept {
  const auto id = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(id_as_ptr));
  ReaderRegistry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  auto it = std::find_if(reg.readers.begin(), reg.readers.end(),
                         [id](const Reader& r) { return r.id == id; });
  if (it != reg.readers.end()) reg.readers.erase(it);
  __atomic_store_n(&t_read_seq, 0, __ATOMIC_RELAXED);
}

#if defined(__linux__)
long membarrier(int cmd) { return syscall(__NR_membarrier, cmd, 0, 0); }
#endif

// Whether the process-wide barrier works here, registering for it.
bool setUpBarrier() {
#if defined(__linux__)
  const long cmds = membarrier(MEMBARRIER_CMD_QUERY);
  if (cmds < 0 || (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return false;
  return membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
#else
  return false;
#endif
}

// Note [Read sections] in read_guard.h: after this returns true, every
// thread either has made its section-entering store visible to this thread,
// or will load the tables published before this call. False: no barrier
// happened, so nothing may be freed on its account.
bool processWideBarrier() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
#if defined(__linux__)
  const bool ok = membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0;
#else
  const bool ok = false;
#endif
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return ok;
}

}  // namespace

uint64_t enterReadSectionSlow(uint64_t seq) noexcept {
  if (seq != 0) return seq;  // nested: the outer section's end counts
  ReaderRegistry& reg = registry();
  {
    std::lock_guard<std::mutex> lock(reg.mutex);
    const uint64_t id = reg.next_id++;
    reg.readers.push_back(Reader{id, &t_read_seq});
    pthread_setspecific(reg.key, reinterpret_cast<void*>(static_cast<uintptr_t>(id)));
  }
  // A writer scanning after the unlock above sees this thread; one that
  // scanned before it published its tables before its own unlock, which
  // the lock above acquired, so the table loads after this see them.
  __atomic_store_n(&t_read_seq, 2, __ATOMIC_RELAXED);
  return 3;
}

TableReclaimer& TableReclaimer::singleton() {
  // Leaked like the dispatcher, whose tables it holds.
  static TableReclaimer* r = new TableReclaimer();
  return *r;
}

TableReclaimer::TableReclaimer() : enabled_(setUpBarrier()) { registry(); }

void TableReclaimer::retire(Table t) {
  ++stats_.retired;
  fresh_.push_back(std::move(t));
}

void TableReclaimer::collect(Garbage& out, bool force) {
  if (!enabled_) return;  // kept for good: there is no safe moment to free them
  bool begin = !fresh_.empty() && (force || fresh_.size() >= kBatch);
  if (!begin && !(force && !waiting_.empty())) return;
  // Begin a grace period for the fresh tables: after the barrier, every
  // read section that could have loaded one of them shows as running. If
  // the barrier fails, they wait for the next attempt.
  if (begin && !processWideBarrier()) begin = false;
  ReaderRegistry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  if (begin) {
    Batch b;
    b.tables = std::move(fresh_);
    fresh_.clear();
    for (const Reader& r : reg.readers) {
      const uint64_t seq = __atomic_load_n(r.seq, __ATOMIC_ACQUIRE);
      if (seq != 0 && (seq & 1) == 0) b.running.emplace_back(r.id, seq);
    }
    waiting_.push_back(std::move(b));
    ++stats_.grace_periods;
  }
  // A section seen running has ended once its thread's number moved on
  // (or the thread exited). Acquire: its reads happen before the frees.
  auto ended = [&reg](const std::pair<uint64_t, uint64_t>& seen) {
    for (const Reader& r : reg.readers) {
      if (r.id == seen.first) return __atomic_load_n(r.seq, __ATOMIC_ACQUIRE) != seen.second;
    }
    return true;
  };
  size_t kept = 0;
  for (size_t i = 0; i < waiting_.size(); ++i) {
    Batch& b = waiting_[i];
    b.running.erase(std::remove_if(b.running.begin(), b.running.end(), ended), b.running.end());
    if (b.running.empty()) {
      stats_.freed += b.tables.size();
      for (Table& t : b.tables) out.push_back(std::move(t));
    } else {
      if (kept != i) waiting_[kept] = std::move(b);
      ++kept;
    }
  }
  waiting_.resize(kept);
}

TableReclaimer::Stats TableReclaimer::stats() const {
  Stats s = stats_;
  s.waiting = fresh_.size();
  for (const Batch& b : waiting_) s.waiting += b.tables.size();
  return s;
}

}  // namespace detail
}  // namespace st
