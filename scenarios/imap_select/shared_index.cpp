#include "shared_index.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

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
  if (lies_.apply_in_place) {  // room to append in place: the vectors never move under a reader
    s->uids.reserve(s->uids.size() + (1u << 20));
    s->bits.reserve(s->bits.size() + (1u << 20));
  }
  if (lies_.drop_keywords) s->flag_mask = static_cast<FlagBits>(0x1F);  // the five system flags
  current_ = std::move(s);
}

std::shared_ptr<const IndexState> SharedIndex::current() const {
  std::lock_guard lock(m_);
  return current_;
}

namespace {

// A commit's changes to `st`'s rows and seen/deleted counts; SELECT's numbers go to `s`.
void apply_changes(IndexState& st, SelectState& s, const MailboxCommit& c) {
  auto count = [&](FlagBits f, int sign) {
    if (f & kSeen) st.seen += sign;
    if (f & kDeleted) st.deleted += sign;
  };
  for (const MessageChange& m : c.changes) {
    if (m.appended) {
      if (!st.uids.empty() && m.uid <= st.uids.back()) continue;
      st.uids.push_back(m.uid);
      st.bits.push_back(m.flags);
      count(m.flags, +1);
      if (m.uid >= st.recent_from_uid) ++s.recent;
      if (!(m.flags & kSeen) && s.first_unseen == 0) s.first_unseen = static_cast<std::uint32_t>(st.uids.size());
      continue;
    }
    const auto it = std::lower_bound(st.uids.begin(), st.uids.end(), m.uid);
    if (it == st.uids.end() || *it != m.uid) continue;
    const auto seq0 = static_cast<std::size_t>(it - st.uids.begin());
    count(st.bits[seq0], -1);
    count(m.flags, +1);
    st.bits[seq0] = m.flags;
    const auto seq = static_cast<std::uint32_t>(seq0 + 1);
    if (!(m.flags & kSeen) && (s.first_unseen == 0 || seq < s.first_unseen)) s.first_unseen = seq;
    if ((m.flags & kSeen) && s.first_unseen == seq) {  // the low-water mark moves on to the next unseen
      s.first_unseen = 0;
      for (std::size_t i = seq0 + 1; i < st.bits.size(); ++i)
        if (!(st.bits[i] & kSeen)) {
          s.first_unseen = static_cast<std::uint32_t>(i + 1);
          break;
        }
    }
  }
}

}  // namespace

void SharedIndex::apply(const MailboxCommit& c) {
  const auto cur = current();
  if (c.highestmodseq <= cur->select.highestmodseq) return;  // already in this state
  const bool room = cur->uids.capacity() >= cur->uids.size() + c.changes.size() &&
                    cur->bits.capacity() >= cur->bits.size() + c.changes.size();
  if (lies_.apply_in_place && room) {
    // The lie: no copy per commit; the rows change under the sessions that hold this state,
    // its numbers a moment later (the store of a few fields, widened here to a sleep).
    auto& live = const_cast<IndexState&>(*cur);
    SelectState s = live.select;
    apply_changes(live, s, c);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    s.exists = static_cast<std::uint32_t>(live.uids.size());
    s.uidnext = c.uidnext;
    s.highestmodseq = c.highestmodseq;
    live.select = s;
    return;
  }
  auto next = std::make_shared<IndexState>(*cur);
  SelectState& s = next->select;
  apply_changes(*next, s, c);
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
