// The thread pool behind parallel_for. One job at a time per pool: a job
// is a range split into chunks; workers (and the caller) claim chunks with
// an atomic counter, so no per-chunk queue allocation is needed. Callers
// from several threads take turns through job_mutex_.
#include <st/core/parallel.h>

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <st/core/error.h>
#include <st/core/warning.h>

namespace st {
namespace {

thread_local int tl_thread_idx = 0;
thread_local bool tl_in_parallel = false;

// Marks the current thread as running chunk `idx` for the scope.
class RegionGuard {
 public:
  explicit RegionGuard(int idx) : prev_idx_(tl_thread_idx), prev_in_(tl_in_parallel) {
    tl_thread_idx = idx;
    tl_in_parallel = true;
  }
  ~RegionGuard() {
    tl_thread_idx = prev_idx_;
    tl_in_parallel = prev_in_;
  }

 private:
  int prev_idx_;
  bool prev_in_;
};

// One parallel_for call. Lives on the caller's stack; the caller waits
// until every chunk ran and no worker still holds a pointer to it.
struct Job {
  const std::function<void(int64_t, int64_t)>* fn;
  int64_t begin;
  int64_t end;
  int64_t chunk_size;
  int64_t num_chunks;
  std::atomic<int64_t> next_chunk{0};
  int64_t remaining;         // chunks not finished; guarded by the pool mutex
  int users = 0;             // workers inside the job; guarded by the pool mutex
  std::exception_ptr error;  // first failure; guarded by the pool mutex
};

class ThreadPool {
 public:
  explicit ThreadPool(int num_threads) : num_threads_(num_threads) {
    for (int i = 1; i < num_threads; ++i) {
      workers_.emplace_back([this] { worker_loop(); });
    }
  }

  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& w : workers_) {
      w.join();
    }
  }

  int num_threads() const { return num_threads_; }

  void run(int64_t begin, int64_t end, int64_t grain,
           const std::function<void(int64_t, int64_t)>& fn) {
    std::lock_guard<std::mutex> job_lock(job_mutex_);
    // n >= 1 (parallel_for refused ranges whose length overflows); the
    // ceilings are written as (n - 1) / d + 1 so none can overflow.
    const int64_t n = end - begin;
    const int64_t g = grain < 1 ? 1 : grain;
    int64_t chunks = (n - 1) / g + 1;
    if (chunks > num_threads_) {
      chunks = num_threads_;
    }
    const int64_t chunk_size = (n - 1) / chunks + 1;
    chunks = (n - 1) / chunk_size + 1;
    Job job;
    job.fn = &fn;
    job.begin = begin;
    job.end = end;
    job.chunk_size = chunk_size;
    job.num_chunks = chunks;
    job.remaining = chunks;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      ++generation_;
    }
    if (chunks > 1) {
      wake_.notify_all();
    }
    work_on(job);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return job.remaining == 0 && job.users == 0; });
    job_ = nullptr;
    lock.unlock();
    if (job.error) {
      std::rethrow_exception(job.error);
    }
  }

 private:
  void worker_loop() {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) {
        return;
      }
      seen = generation_;
      Job* job = job_;
      if (job == nullptr) {
        continue;
      }
      ++job->users;
      lock.unlock();
      work_on(*job);
      lock.lock();
      if (--job->users == 0 && job->remaining == 0) {
        done_.notify_all();
      }
    }
  }

  // Claims and runs chunks of `job` until none are left.
  void work_on(Job& job) {
    for (;;) {
      const int64_t c = job.next_chunk.fetch_add(1, std::memory_order_relaxed);
      if (c >= job.num_chunks) {
        return;
      }
      // lo < end, so end - lo is exact where lo + chunk_size may not be.
      const int64_t lo = job.begin + c * job.chunk_size;
      const int64_t hi = job.end - lo > job.chunk_size ? lo + job.chunk_size : job.end;
      std::exception_ptr error;
      try {
        RegionGuard guard(static_cast<int>(c));
        (*job.fn)(lo, hi);
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex_);
      if (error && !job.error) {
        job.error = error;
      }
      if (--job.remaining == 0 && job.users == 0) {
        done_.notify_all();
      }
    }
  }

  const int num_threads_;
  std::vector<std::thread> workers_;
  std::mutex job_mutex_;  // one job at a time
  std::mutex mutex_;      // guards job_, generation_, stopping_, Job counts
  std::condition_variable wake_;
  std::condition_variable done_;
  bool stopping_ = false;
  uint64_t generation_ = 0;
  Job* job_ = nullptr;
};

int default_num_threads() {
  const char* env = std::getenv("STABLETORCH_NUM_THREADS");
  if (env != nullptr && *env != '\0') {
    char* end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (end != nullptr && *end == '\0' && v >= 1 && v <= 1024) {
      return static_cast<int>(v);
    }
    ST_WARN("STABLETORCH_NUM_THREADS: expected a positive integer, got '", env,
            "'; using the number of cores");
  }
  const unsigned hc = std::thread::hardware_concurrency();
  return hc == 0 ? 1 : static_cast<int>(hc);
}

std::mutex g_pool_mutex;
std::shared_ptr<ThreadPool> g_pool;  // created lazily
std::atomic<int> g_num_threads{0};   // 0 = not decided yet

int decided_num_threads() {
  int n = g_num_threads.load(std::memory_order_acquire);
  if (n == 0) {
    std::lock_guard<std::mutex> lock(g_pool_mutex);
    n = g_num_threads.load(std::memory_order_relaxed);
    if (n == 0) {
      n = default_num_threads();
      g_num_threads.store(n, std::memory_order_release);
    }
  }
  return n;
}

// After fork() the child has the pool object but none of its threads:
// abandon it (destroying it would join threads that do not exist) so the
// child builds a fresh pool on first use.
// The abandoned pools stay referenced from static storage, so leak
// checkers see them as reachable rather than leaked.
using PoolRef = std::shared_ptr<ThreadPool>;
constexpr int kAbandonSlots = 8;
alignas(PoolRef) unsigned char g_abandoned[kAbandonSlots][sizeof(PoolRef)];
int g_abandoned_count = 0;

void abandon_pool_in_child() {
  new (&g_pool_mutex) std::mutex();  // the parent may have held it
  if (!g_pool) {
    return;
  }
  if (g_abandoned_count < kAbandonSlots) {
    new (g_abandoned[g_abandoned_count++]) PoolRef(std::move(g_pool));
  } else {
    (void)new PoolRef(std::move(g_pool));  // deep fork chains: plain leak
  }
  g_pool.reset();
}

std::shared_ptr<ThreadPool> current_pool() {
  static const bool fork_handler_installed = [] {
    pthread_atfork(nullptr, nullptr, &abandon_pool_in_child);
    return true;
  }();
  (void)fork_handler_installed;
  const int n = decided_num_threads();
  std::lock_guard<std::mutex> lock(g_pool_mutex);
  if (!g_pool || g_pool->num_threads() != n) {
    g_pool = std::make_shared<ThreadPool>(n);
  }
  return g_pool;
}

}  // namespace

int get_num_threads() { return decided_num_threads(); }

void set_num_threads(int n) {
  ST_CHECK(n >= 1,
           "set_num_threads: expected a positive number of threads, "
           "got ",
           n);
  ST_CHECK(!tl_in_parallel,
           "set_num_threads: cannot be called from inside "
           "a parallel region");
  std::shared_ptr<ThreadPool> old;
  {
    std::lock_guard<std::mutex> lock(g_pool_mutex);
    g_num_threads.store(n, std::memory_order_release);
    old = std::move(g_pool);  // running jobs keep their own reference
  }
  // `old` is joined here unless a running parallel_for still holds it.
}

int get_thread_idx() noexcept { return tl_thread_idx; }

bool in_parallel_region() noexcept { return tl_in_parallel; }

namespace detail {

void parallel_run(int64_t begin, int64_t end, int64_t grain_size,
                  const std::function<void(int64_t, int64_t)>& fn) {
  std::shared_ptr<ThreadPool> pool = current_pool();
  pool->run(begin, end, grain_size, fn);
}

}  // namespace detail
}  // namespace st
