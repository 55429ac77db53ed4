// st::detail::TableReclaimer: frees replaced dispatch tables once no read
// section that could have loaded them is still running (Note [Publishing
// and reclaiming dispatch tables] in operator_entry.h; the reader side is
// st::DispatchReadGuard, Note [Read sections] in read_guard.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <st/dispatch/operator_entry.h>

namespace st {
namespace detail {

class TableReclaimer {
 public:
  using Table = std::unique_ptr<const DispatchTable>;
  // Tables whose grace period is over; destroyed by whoever holds this,
  // after the dispatcher mutex is released (a kernel functor's destructor
  // may call into the dispatcher).
  using Garbage = std::vector<Table>;

  static TableReclaimer& singleton();

  // Takes a table that has just been replaced (its successor is published).
  // Precondition: the dispatcher mutex is held.
  void retire(Table t);
  // Starts a grace period for the tables retired since the last one when
  // there are enough of them (or `force`), and moves every table whose
  // grace period is over into `out`. Precondition: the dispatcher mutex is
  // held.
  void collect(Garbage& out, bool force = false);

  // Whether tables are ever freed: false when the process-wide barrier is
  // not available (then they are kept, as before reclamation existed).
  bool enabled() const { return enabled_; }
  struct Stats {
    uint64_t retired = 0;  // tables ever retired
    uint64_t freed = 0;    // tables handed out as garbage
    size_t waiting = 0;    // retired, not yet freed
    uint64_t grace_periods = 0;
  };
  Stats stats() const;  // precondition: the dispatcher mutex is held

  // The number of retired tables that starts a grace period.
  static constexpr size_t kBatch = 256;

 private:
  TableReclaimer();

  struct Batch {
    std::vector<Table> tables;
    // Read sections that were running when the grace period began: (reader
    // id, the even sequence number seen).
    std::vector<std::pair<uint64_t, uint64_t>> running;
  };

  bool enabled_ = false;
  std::vector<Table> fresh_;    // retired since the last grace period began
  std::vector<Batch> waiting_;  // grace period begun, readers still running
  Stats stats_;
};

}  // namespace detail
}  // namespace st
