#include "full_snapshot.hpp"

#include <stdexcept>

namespace imap_select {

namespace {
std::vector<std::string> split_flags(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const auto sp = text.find(' ');
    if (sp != 0) out.emplace_back(text.substr(0, sp));
    text = sp == std::string_view::npos ? std::string_view() : text.substr(sp + 1);
  }
  return out;
}
}  // namespace

FlagBits FullSnapshot::flags(std::size_t seq0) const {
  FlagBits bits = 0;
  for (const auto& f : rows_[seq0]->flags) bits |= flag_bit(f);
  return bits;
}

std::shared_ptr<const FullSnapshot> FullSnapshot::build(Db& db, std::int64_t mailbox_id) {
  auto snap = std::make_shared<FullSnapshot>();
  Statement mailbox(db, "SELECT uidvalidity, uidnext, highestmodseq, recent_from_uid FROM mailboxes WHERE id = ?1");
  Statement messages(db,
                     "SELECT id, uid, modseq, flags, internal_date, size, message_id, subject FROM messages "
                     "WHERE mailbox_id = ?1 ORDER BY uid");
  {
    Transaction read(db);
    if (!mailbox.bind(1, mailbox_id).step()) throw std::runtime_error("mailbox vanished from the cache");
    snap->state_.uidvalidity = static_cast<std::uint32_t>(mailbox.i64(0));
    snap->state_.uidnext = static_cast<std::uint32_t>(mailbox.i64(1));
    snap->state_.highestmodseq = static_cast<std::uint64_t>(mailbox.i64(2));
    const auto recent_from = static_cast<std::uint32_t>(mailbox.i64(3));
    mailbox.reset();
    messages.bind(1, mailbox_id);
    while (messages.step()) {
      auto m = std::make_unique<CachedMessage>();
      m->id = messages.i64(0);
      m->uid = static_cast<std::uint32_t>(messages.i64(1));
      m->modseq = static_cast<std::uint64_t>(messages.i64(2));
      m->flags = split_flags(messages.text(3));
      m->internal_date = std::string(messages.text(4));
      m->size = messages.i64(5);
      m->message_id = std::string(messages.text(6));
      m->subject = std::string(messages.text(7));
      if (m->uid >= recent_from) ++snap->state_.recent;
      snap->rows_.push_back(std::move(m));
    }
    read.commit();
  }
  // The projections, from the rows just built.
  snap->state_.exists = static_cast<std::uint32_t>(snap->rows_.size());
  for (std::size_t i = 0; i < snap->rows_.size(); ++i) {
    const FlagBits f = snap->flags(i);
    if (f & kSeen)
      ++snap->seen_;
    else if (snap->state_.first_unseen == 0)
      snap->state_.first_unseen = static_cast<std::uint32_t>(i + 1);
    if (f & kDeleted) ++snap->deleted_;
  }
  return snap;
}

}  // namespace imap_select
