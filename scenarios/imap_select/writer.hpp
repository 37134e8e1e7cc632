// The proxy's single writer: a thread that keeps the cache's write transaction busy the way a
// sync engine does (appends, flag changes), in a deterministic order of numbered operations,
// so two servers started from the same fixture and stepped to the same operation count hold
// the same mailbox. It starts parked; `step_to(n)` runs it to exactly n operations and holds
// it there (the agreement pass), `run()` lets it go.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "mailbox_view.hpp"

namespace imap_select {

// One message's change: appended with these flags, or its flags set to these.
struct MessageChange {
  std::uint32_t uid = 0;
  FlagBits flags = 0;
  bool appended = false;
};

// What one committed transaction changed in a mailbox, in order, as absolute values
// (applying it twice changes nothing).
struct MailboxCommit {
  std::int64_t mailbox_id = 0;
  std::vector<MessageChange> changes;
  std::uint32_t uidnext = 0;
  std::uint64_t highestmodseq = 0;
};

struct WriterOptions {
  std::string db_path;
  std::int64_t mailbox_id = 0;
  std::uint64_t seed = 4;
  int ops_per_transaction = 8;
  int hold_ms = 3;       // the write transaction stays open this long after its operations
  int pause_ms = 1;      // between transactions
  int commit_every = 1;  // transactions per COMMIT (AFTER's lie "skip-commit" batches them)
  std::function<void(const MailboxCommit&)> on_commit;  // after COMMIT, on the writer thread
};

struct WriterStatus {
  std::uint64_t ops = 0;
  std::uint64_t transactions = 0;
  std::uint64_t highestmodseq = 0;
};

class Writer {
 public:
  explicit Writer(WriterOptions o);
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  // Runs to exactly `ops` operations and parks there. Empty on success, else why not (already
  // past it, or the writer failed).
  std::string step_to(std::uint64_t ops);
  void run();
  WriterStatus status();

 private:
  void loop();
  void transaction(class Db& db, std::uint64_t count);
  WriterOptions o_;
  std::mutex m_;
  std::condition_variable cv_;
  enum class Mode { Parked, Stepping, Running, Stopping } mode_ = Mode::Parked;
  std::uint64_t target_ = 0;
  WriterStatus status_;
  bool batch_open_ = false;  // a batched write transaction is open (commit_every > 1)
  std::string failure_;
  std::thread thread_;
};

}  // namespace imap_select
