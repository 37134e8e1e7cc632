// AFTER: one immutable snapshot per mailbox state, shared by every session that selected the
// mailbox in that state, with the counters SELECT answers kept as the writer commits (the way
// Dovecot's index header keeps messages/seen/deleted counts, first unseen and next UID). A
// SELECT copies one pointer; the per-session part is that pointer.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "mail_db.hpp"
#include "mailbox_view.hpp"
#include "writer.hpp"

namespace imap_select {

struct IndexState : MailboxView {
  SelectState select;
  std::uint32_t recent_from_uid = 0;
  std::uint32_t seen = 0, deleted = 0;
  std::vector<std::uint32_t> uids;
  std::vector<FlagBits> bits;
  FlagBits flag_mask = static_cast<FlagBits>(~0u);  // a lie narrows it
  const SelectState& state() const override { return select; }
  std::uint32_t uid(std::size_t seq0) const override { return uids[seq0]; }
  FlagBits flags(std::size_t seq0) const override { return bits[seq0] & flag_mask; }
};

// How an AFTER lies (for `perfgate lies`): the honest index does neither.
struct IndexLies {
  bool stale_exists = false;    // appends reach the rows but not EXISTS/UIDNEXT
  bool drop_keywords = false;   // FETCH answers system flags only
  bool one_index = false;       // every mailbox answered from the first mailbox's index
  bool apply_in_place = false;  // a commit written into the published state, no copy
};

class SharedIndex {
 public:
  SharedIndex(Db& db, std::int64_t mailbox_id, IndexLies lies);
  std::shared_ptr<const IndexState> current() const;
  // The next state from the current one and a commit; the writer's thread calls it.
  void apply(const MailboxCommit& c);

 private:
  mutable std::mutex m_;  // held only to copy or swap the pointer
  std::shared_ptr<const IndexState> current_;
  IndexLies lies_;
};

// The indexes of every mailbox, each built on its first SELECT (or eagerly with `prepare`).
class SharedIndexes {
 public:
  explicit SharedIndexes(IndexLies lies) : lies_(lies) {}
  SharedIndex& prepare(Db& db, std::int64_t mailbox_id);
  void apply(const MailboxCommit& c);

 private:
  std::mutex m_;
  std::map<std::int64_t, std::unique_ptr<SharedIndex>> indexes_;
  IndexLies lies_;
};

}  // namespace imap_select
