// BEFORE: every SELECT builds the session's own snapshot of the mailbox from the cache —
// every row, every column, an object and its strings allocated per row — and recomputes
// every projection (counts, first unseen, recent) from those rows. Sessions share nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mail_db.hpp"
#include "mailbox_view.hpp"

namespace imap_select {

struct CachedMessage {
  std::int64_t id = 0;
  std::uint32_t uid = 0;
  std::uint64_t modseq = 0;
  std::vector<std::string> flags;  // as the upstream server sent them
  std::string internal_date;
  std::int64_t size = 0;
  std::string message_id;
  std::string subject;
};

class FullSnapshot : public MailboxView {
 public:
  // Reads the mailbox in one read transaction (WAL: the last commit, never waiting on the writer).
  static std::shared_ptr<const FullSnapshot> build(Db& db, std::int64_t mailbox_id);
  const SelectState& state() const override { return state_; }
  std::uint32_t uid(std::size_t seq0) const override { return rows_[seq0]->uid; }
  // Recomputed from the row's flag strings on every call.
  FlagBits flags(std::size_t seq0) const override;
  std::uint32_t seen() const { return seen_; }
  std::uint32_t deleted() const { return deleted_; }

 private:
  std::vector<std::unique_ptr<CachedMessage>> rows_;
  SelectState state_;
  std::uint32_t seen_ = 0, deleted_ = 0;
};

}  // namespace imap_select
