#include "writer.hpp"

#include <chrono>
#include <optional>
#include <random>

#include "mail_db.hpp"
#include "seed.hpp"

namespace imap_select {

Writer::Writer(WriterOptions o) : o_(std::move(o)) {
  thread_ = std::thread([this] { loop(); });
}

Writer::~Writer() {
  {
    std::lock_guard lock(m_);
    mode_ = Mode::Stopping;
  }
  cv_.notify_all();
  thread_.join();
}

std::string Writer::step_to(std::uint64_t ops) {
  std::unique_lock lock(m_);
  if (!failure_.empty()) return "the writer failed: " + failure_;
  if (status_.ops > ops || (mode_ == Mode::Running && status_.ops != ops))
    return "the writer is already at operation " + std::to_string(status_.ops) +
           " (running: " + (mode_ == Mode::Running ? "yes" : "no") + "), past " + std::to_string(ops);
  target_ = ops;
  mode_ = status_.ops == ops ? Mode::Parked : Mode::Stepping;
  cv_.notify_all();
  cv_.wait(lock, [&] { return mode_ != Mode::Stepping || !failure_.empty(); });
  return failure_.empty() ? "" : "the writer failed: " + failure_;
}

void Writer::run() {
  std::lock_guard lock(m_);
  if (mode_ != Mode::Stopping) mode_ = Mode::Running;
  cv_.notify_all();
}

WriterStatus Writer::status() {
  std::lock_guard lock(m_);
  return status_;
}

void Writer::loop() {
  try {
    Db db(o_.db_path, Db::Mode::ReadWrite);
    for (;;) {
      std::uint64_t count = 0;
      {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] {
          return mode_ == Mode::Running || mode_ == Mode::Stopping ||
                 (mode_ == Mode::Stepping && status_.ops < target_);
        });
        if (mode_ == Mode::Stopping) return;
        count = static_cast<std::uint64_t>(o_.ops_per_transaction);
        if (mode_ == Mode::Stepping) count = std::min(count, target_ - status_.ops);
      }
      transaction(db, count);
      std::unique_lock lock(m_);
      if (mode_ == Mode::Stepping && status_.ops == target_) mode_ = Mode::Parked;
      cv_.notify_all();
      // Paced only when running free: stepping to a position for the agreement pass is not timed.
      cv_.wait_for(lock, std::chrono::milliseconds(o_.pause_ms), [&] { return mode_ != Mode::Running; });
    }
  } catch (const std::exception& e) {
    std::lock_guard lock(m_);
    failure_ = e.what();
    cv_.notify_all();
  }
}

void Writer::transaction(Db& db, std::uint64_t count) {
  Statement mailbox(db, "SELECT uidnext, highestmodseq FROM mailboxes WHERE id = ?1");
  Statement pick(db, "SELECT uid, flags FROM messages WHERE mailbox_id = ?1 AND uid >= ?2 ORDER BY uid LIMIT 1");
  Statement set_flags(db, "UPDATE messages SET flags = ?3, modseq = ?4 WHERE mailbox_id = ?1 AND uid = ?2");
  Statement append(db,
                   "INSERT INTO messages (mailbox_id, uid, modseq, flags, internal_date, size, message_id, subject) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  Statement update(db, "UPDATE mailboxes SET uidnext = ?2, highestmodseq = ?3 WHERE id = ?1");
  std::optional<Transaction> tx;
  if (o_.commit_every <= 1) {
    tx.emplace(db, "BEGIN IMMEDIATE");
  } else if (!batch_open_) {
    db.exec("BEGIN IMMEDIATE");
    batch_open_ = true;
  }
  MailboxCommit c;
  c.mailbox_id = o_.mailbox_id;
  if (!mailbox.bind(1, o_.mailbox_id).step()) throw std::runtime_error("the writer's mailbox is not in the cache");
  auto uidnext = static_cast<std::uint32_t>(mailbox.i64(0));
  auto modseq = static_cast<std::uint64_t>(mailbox.i64(1));
  const std::uint64_t first = status_.ops + 1;  // only this thread changes ops
  for (std::uint64_t k = first; k < first + count; ++k) {
    std::mt19937_64 r(o_.seed * 1000003ULL + k);  // operation k is the same on every run
    ++modseq;
    if (r() % 8 == 0 || uidnext == 1) {
      const FlagBits bits = r() % 5 == 0 ? kSeen : 0;
      const auto key = static_cast<std::int64_t>(k);
      append.bind(1, o_.mailbox_id).bind(2, std::int64_t{uidnext}).bind(3, static_cast<std::int64_t>(modseq));
      append.bind(4, format_flags(bits)).bind(5, imap_date(1735689600 + key * 37));
      append.bind(6, static_cast<std::int64_t>(1000 + r() % 50000)).bind(7, "<w" + std::to_string(k) + "@sync.test>");
      append.bind(8, "synced #" + std::to_string(k)).step();
      append.reset();
      c.changes.push_back({uidnext++, bits, true});
      continue;
    }
    pick.bind(1, o_.mailbox_id).bind(2, static_cast<std::int64_t>(1 + r() % (uidnext - 1)));
    if (!pick.step()) {  // past the last uid (a gap at the end): wrap to the first message
      pick.reset();
      pick.bind(1, o_.mailbox_id).bind(2, std::int64_t{1});
      if (!pick.step()) continue;
    }
    const auto uid = static_cast<std::uint32_t>(pick.i64(0));
    FlagBits bits = parse_flags(pick.text(1));
    pick.reset();
    const auto roll = r() % 100;
    const std::string_view flag = roll < 50   ? "\\Seen"
                                  : roll < 70 ? "\\Flagged"
                                  : roll < 85 ? "\\Answered"
                                  : roll < 95 ? "\\Deleted"
                                              : "$Junk";
    bits ^= flag_bit(flag);
    set_flags.bind(1, o_.mailbox_id).bind(2, std::int64_t{uid}).bind(3, format_flags(bits));
    set_flags.bind(4, static_cast<std::int64_t>(modseq)).step();
    set_flags.reset();
    c.changes.push_back({uid, bits, false});
  }
  update.bind(1, o_.mailbox_id).bind(2, std::int64_t{uidnext}).bind(3, static_cast<std::int64_t>(modseq)).step();
  c.uidnext = uidnext;
  c.highestmodseq = modseq;
  {
    // The transaction stays open a while, as a sync engine's does while it talks to the
    // upstream server: readers must not notice.
    std::unique_lock lock(m_);
    cv_.wait_for(lock, std::chrono::milliseconds(o_.hold_ms), [&] { return mode_ != Mode::Running; });
  }
  if (tx) {
    tx->commit();
  } else if ((status_.transactions + 1) % static_cast<std::uint64_t>(o_.commit_every) == 0) {
    db.exec("COMMIT");
    batch_open_ = false;
  }
  if (o_.on_commit) o_.on_commit(c);
  std::lock_guard lock(m_);
  status_.ops += count;
  ++status_.transactions;
  status_.highestmodseq = modseq;
}

}  // namespace imap_select
