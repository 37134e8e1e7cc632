#include "shared_index.hpp"

#include <algorithm>
#include <stdexcept>

namespace imap_select {

SharedIndex::SharedIndex(Db& db, std::int64_t mailbox_id, IndexLies lies) : lies_(lies) {
  auto s = std::make_shared<IndexState>();
  Statement mailbox(db, "SELECT uidvalidity, uidnext, highestmodseq, recent_from_uid FROM mailboxes WHERE id = ?1");
  Statement messages(db, "SELECT uid, flags FROM messages WHERE mailbox_id = ?1 ORDER BY uid");
  Transaction read(db);
  if (!mailbox.bind(1, mailbox_id).step()) throw std::runtime_error("mailbox vanished from the cache");
  s->select.uidvalidity = static_cast<std::uint32_t>(mailbox.i64(0));
  s->select.uidnext = static_cast<std::uint32_t>(mailbox.i64(1));
  s->select.highestmodseq = static_cast<std::uint64_t>(mailbox.i64(2));
  s->recent_from_uid = static_cast<std::uint32_t>(mailbox.i64(3));
  messages.bind(1, mailbox_id);
  while (messages.step()) {
    const auto uid = static_cast<std::uint32_t>(messages.i64(0));
    const FlagBits f = parse_flags(messages.text(1));
    s->uids.push_back(uid);
    s->bits.push_back(f);
    if (uid >= s->recent_from_uid) ++s->select.recent;
    if (f & kSeen)
      ++s->seen;
    else if (s->select.first_unseen == 0)
      s->select.first_unseen = static_cast<std::uint32_t>(s->uids.size());
    if (f & kDeleted) ++s->deleted;
  }
  read.commit();
  s->select.exists = static_cast<std::uint32_t>(s->uids.size());
  if (lies_.drop_keywords) s->flag_mask = static_cast<FlagBits>(0x1F);  // the five system flags
  current_ = std::move(s);
}

std::shared_ptr<const IndexState> SharedIndex::current() const {
  std::lock_guard lock(m_);
  return current_;
}

void SharedIndex::apply(const MailboxCommit& c) {
  const auto cur = current();
  if (c.highestmodseq <= cur->select.highestmodseq) return;  // already in this state
  auto next = std::make_shared<IndexState>(*cur);
  SelectState& s = next->select;
  auto count = [&](FlagBits f, int sign) {
    if (f & kSeen) next->seen += sign;
    if (f & kDeleted) next->deleted += sign;
  };
  for (const MessageChange& m : c.changes) {
    if (m.appended) {
      if (!next->uids.empty() && m.uid <= next->uids.back()) continue;
      next->uids.push_back(m.uid);
      next->bits.push_back(m.flags);
      count(m.flags, +1);
      if (m.uid >= next->recent_from_uid) ++s.recent;
      if (!(m.flags & kSeen) && s.first_unseen == 0) s.first_unseen = static_cast<std::uint32_t>(next->uids.size());
      continue;
    }
    const auto it = std::lower_bound(next->uids.begin(), next->uids.end(), m.uid);
    if (it == next->uids.end() || *it != m.uid) continue;
    const auto seq0 = static_cast<std::size_t>(it - next->uids.begin());
    count(next->bits[seq0], -1);
    count(m.flags, +1);
    next->bits[seq0] = m.flags;
    const auto seq = static_cast<std::uint32_t>(seq0 + 1);
    if (!(m.flags & kSeen) && (s.first_unseen == 0 || seq < s.first_unseen)) s.first_unseen = seq;
    if ((m.flags & kSeen) && s.first_unseen == seq) {  // the low-water mark moves on to the next unseen
      s.first_unseen = 0;
      for (std::size_t i = seq0 + 1; i < next->bits.size(); ++i)
        if (!(next->bits[i] & kSeen)) {
          s.first_unseen = static_cast<std::uint32_t>(i + 1);
          break;
        }
    }
  }
  if (!lies_.stale_exists) {
    s.exists = static_cast<std::uint32_t>(next->uids.size());
    s.uidnext = c.uidnext;
  }
  s.highestmodseq = c.highestmodseq;
  std::lock_guard lock(m_);
  current_ = std::move(next);
}

SharedIndex& SharedIndexes::prepare(Db& db, std::int64_t mailbox_id) {
  std::lock_guard lock(m_);
  // The lie "one-index": the indexes keyed by nothing, whichever mailbox filled the first.
  auto& slot = indexes_[lies_.one_index && !indexes_.empty() ? indexes_.begin()->first : mailbox_id];
  if (!slot) slot = std::make_unique<SharedIndex>(db, mailbox_id, lies_);
  return *slot;
}

void SharedIndexes::apply(const MailboxCommit& c) {
  SharedIndex* index = nullptr;
  {
    std::lock_guard lock(m_);
    if (auto it = indexes_.find(c.mailbox_id); it != indexes_.end()) index = it->second.get();
  }
  if (index) index->apply(c);
}

}  // namespace imap_select
