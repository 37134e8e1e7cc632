// BEFORE (a full snapshot per SELECT) and AFTER (shared snapshots, counters kept as the
// writer commits) answer byte for byte the same at the same writer position; the lies do
// not; and an open write transaction never holds a SELECT up (WAL readers), shown by
// ordering: the SELECT runs while another connection holds the write lock.
#include <algorithm>

#include "full_snapshot.hpp"
#include "imap_format.hpp"
#include "proxy.hpp"
#include "test_fixture.hpp"

namespace imap_select {
namespace {

using testing::fixture_dir;
using testing::say;

ProxyOptions options(const std::string& variant, const std::string& lie = "") {
  return ProxyOptions{fixture_dir(), variant, lie, {{"writer_hold_ms", 0}, {"writer_pause_ms", 0}}};
}

// Everything the agreement pass compares, as one string.
std::string transcript(Proxy& proxy) {
  ProxyBackend backend(proxy);
  ImapSession s(backend);
  std::string out = say(s, std::string("a LOGIN ") + kUser + " " + kPassword);
  for (const char* line : {"b SELECT INBOX", "c FETCH 1:* (UID FLAGS)", "d EXAMINE inbox", "e UID FETCH 1:* (FLAGS)",
                           "f SELECT work/INBOX", "g FETCH 1:* (UID FLAGS)"})
    out += say(s, line);
  return out;
}

TEST(Agreement, BeforeAndAfterAreByteIdenticalAtEveryWriterPosition) {
  Proxy before(options("before")), after(options("after"));
  for (std::uint64_t ops : {0, 1, 9, 57, 400, 1203}) {
    ASSERT_EQ(before.writer().step_to(ops), "");
    ASSERT_EQ(after.writer().step_to(ops), "");
    const std::string b = transcript(before);
    const std::string a = transcript(after);
    const auto diff = std::mismatch(b.begin(), b.end(), a.begin(), a.end()).first - b.begin();
    EXPECT_TRUE(a == b) << "at writer operation " << ops << ", from byte " << diff << ": before '"
                        << b.substr(diff > 80 ? diff - 80 : 0, 160) << "' after '"
                        << a.substr(diff > 80 ? diff - 80 : 0, 160) << "'";
    EXPECT_NE(b.find("OK [READ-WRITE]"), std::string::npos);
  }
  // The writer moved the mailbox: appends and flag changes since the fixture.
  Proxy fresh(options("before"));
  EXPECT_NE(transcript(fresh), transcript(before));
}

TEST(Agreement, EachLieIsVisibleInTheTranscript) {
  Proxy before(options("before"));
  ASSERT_EQ(before.writer().step_to(400), "");
  for (const char* lie : {"stale-exists", "fetch-drops-flags"}) {
    Proxy liar(options("after", lie));
    ASSERT_EQ(liar.writer().step_to(400), "");
    EXPECT_NE(transcript(before), transcript(liar)) << lie;
  }
}

// The agreement probes' lies (agree_probes.hpp): a refused LOGIN let in, an unknown mailbox
// answered, the cache left behind what SELECT announces.
TEST(Agreement, TheProbesLiesAreVisible) {
  auto answer = [](Proxy& p, std::initializer_list<std::string> lines) {
    ProxyBackend backend(p);
    ImapSession s(backend);
    std::string out;
    for (const auto& line : lines) out += say(s, line);
    return out;
  };
  const std::string right = std::string("a LOGIN ") + kUser + " " + kPassword;
  const std::string wrong = std::string("b LOGIN ") + kUser + " not-" + kPassword;
  for (const auto& [variant, lie] : {std::pair{"before", ""}, {"after", ""}, {"after", "any-password"}}) {
    Proxy p(options(variant, lie));
    answer(p, {right});  // a LOGIN the cache accepted, then the same name with a wrong password
    EXPECT_EQ(answer(p, {wrong}).find("b NO [AUTHENTICATIONFAILED]") == 0, std::string(lie).empty()) << lie;
  }
  Proxy honest(options("after")), liar(options("after", "unknown-box-as-inbox"));
  EXPECT_EQ(answer(honest, {right, "c SELECT NoSuchBox"}).find("c NO [NONEXISTENT]") != std::string::npos, true);
  EXPECT_EQ(answer(liar, {right, "c SELECT NoSuchBox"}).find("c NO [NONEXISTENT]"), std::string::npos);
  auto cached_uidnext = [](Proxy& p) {
    Db db(p.db_path(), Db::Mode::ReadOnly);
    Statement q(db, "SELECT uidnext FROM mailboxes WHERE name = 'INBOX' ORDER BY id LIMIT 1");
    return q.step() ? q.i64(0) : -1;
  };
  Proxy writes(options("after")), defers(options("after", "skip-commit"));
  const auto at_start = cached_uidnext(writes);
  ASSERT_EQ(writes.writer().step_to(400), "");
  ASSERT_EQ(defers.writer().step_to(400), "");
  EXPECT_GT(cached_uidnext(writes), at_start);
  EXPECT_EQ(cached_uidnext(defers), at_start);
}

TEST(Agreement, AStepBackIsRefusedAndTheStateKept) {
  Proxy p(options("after"));
  ASSERT_EQ(p.writer().step_to(20), "");
  EXPECT_NE(p.writer().step_to(10), "");
  EXPECT_EQ(p.writer().status().ops, 20u);
}

// Holds the cache's write lock with uncommitted changes through a SELECT: if a SELECT waited
// on the writer it would wait here until the busy timeout and fail.
TEST(WriterNeverBlocksSelect, AnOpenWriteTransactionIsInvisibleToSelect) {
  for (const char* variant : {"before", "after"}) {
    Proxy p(options(variant));
    ProxyBackend backend(p);
    ImapSession s(backend);
    say(s, std::string("a LOGIN ") + kUser + " " + kPassword);
    auto select_and_fetch = [&] {
      std::string out = say(s, "b SELECT INBOX");
      return out + say(s, "c FETCH 1:* (UID FLAGS)");
    };
    const std::string quiet = select_and_fetch();
    Db writer(p.db_path(), Db::Mode::ReadWrite);
    {
      Transaction held(writer, "BEGIN IMMEDIATE");
      writer.exec("UPDATE messages SET flags = '' ; UPDATE mailboxes SET uidnext = uidnext + 1000");
      EXPECT_TRUE(select_and_fetch() == quiet) << variant;
    }  // rolled back
  }
}

TEST(Snapshots, FullSnapshotCountsMatchTheCache) {
  Proxy p(options("before"));
  Db db(p.db_path(), Db::Mode::ReadWrite);
  const std::int64_t inbox = find_mailbox(list_mailboxes(db), "INBOX");
  const auto snap = FullSnapshot::build(db, inbox);
  Statement count(db, "SELECT COUNT(*), SUM(flags LIKE '%\\Seen%'), MIN(uid) FROM messages WHERE mailbox_id = ?1");
  ASSERT_TRUE(count.bind(1, inbox).step());
  EXPECT_EQ(snap->state().exists, static_cast<std::uint32_t>(count.i64(0)));
  EXPECT_EQ(snap->seen(), static_cast<std::uint32_t>(count.i64(1)));
  EXPECT_EQ(snap->uid(0), static_cast<std::uint32_t>(count.i64(2)));
  const std::uint32_t u = snap->state().first_unseen;
  ASSERT_GT(u, 0u);
  EXPECT_FALSE(snap->flags(u - 1) & kSeen);
  for (std::uint32_t i = 0; i + 1 < u; ++i) EXPECT_TRUE(snap->flags(i) & kSeen);
}

}  // namespace
}  // namespace imap_select
