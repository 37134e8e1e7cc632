// One session against the real proxy (seeded cache, both variants): SELECT/EXAMINE answers in
// RFC 3501's shapes (6.3.1, 6.3.2, 7.1, 7.3.1) with values taken from the cache itself,
// FETCH/UID FETCH over sequence sets, and the refusals (bad logins, bad or misplaced
// commands) that leave the session usable.
#include <regex>
#include <sstream>

#include "proxy.hpp"
#include "test_fixture.hpp"

namespace imap_select {
namespace {

using testing::fixture_dir;
using testing::say;

std::vector<std::string> lines(const std::string& answer) {
  std::vector<std::string> out;
  std::istringstream in(answer);
  for (std::string l; std::getline(in, l);) {
    EXPECT_TRUE(!l.empty() && l.back() == '\r') << "not CRLF: " << l;
    l.pop_back();
    out.push_back(l);
  }
  return out;
}

class Session : public ::testing::TestWithParam<const char*> {
 protected:
  Proxy proxy{ProxyOptions{fixture_dir(), GetParam(), "", nlohmann::json::object()}};
  ProxyBackend backend{proxy};
  ImapSession s{backend};
  std::string login() { return say(s, std::string("a0 LOGIN ") + kUser + " \"" + kPassword + "\""); }
  std::int64_t db_value(const std::string& sql) {
    Db db(proxy.db_path(), Db::Mode::ReadWrite);
    Statement q(db, sql.c_str());
    EXPECT_TRUE(q.step()) << sql;
    return q.i64(0);
  }
};

TEST_P(Session, SelectAnswersEveryResponseCodeWithTheCachesValues) {
  ASSERT_EQ(login().rfind("a0 OK", 0), 0u);
  const auto l = lines(say(s, "a1 SELECT INBOX"));
  ASSERT_EQ(l.size(), 9u);
  EXPECT_TRUE(std::regex_match(l[0], std::regex(R"(\* FLAGS \((\\?\$?\w+ ?)+\))")));
  EXPECT_TRUE(std::regex_match(l[1], std::regex(R"(\* OK \[PERMANENTFLAGS \(.*\\\*\)\] .*)")));
  const std::string inbox = "(SELECT id FROM mailboxes WHERE name = 'INBOX' AND account_id = 1)";
  EXPECT_EQ(l[2],
            "* " + std::to_string(db_value("SELECT COUNT(*) FROM messages WHERE mailbox_id = " + inbox)) + " EXISTS");
  EXPECT_EQ(l[3], "* 0 RECENT");
  const auto first_unseen = db_value("SELECT COUNT(*) + 1 FROM messages WHERE mailbox_id = " + inbox +
                                     " AND uid < (SELECT MIN(uid) FROM messages WHERE mailbox_id = " + inbox +
                                     " AND flags NOT LIKE '%\\Seen%')");
  EXPECT_EQ(l[4], "* OK [UNSEEN " + std::to_string(first_unseen) + "] First unseen.");
  EXPECT_EQ(l[5], "* OK [UIDVALIDITY " +
                      std::to_string(db_value("SELECT uidvalidity FROM mailboxes WHERE id = " + inbox)) +
                      "] UIDs valid");
  EXPECT_EQ(l[6], "* OK [UIDNEXT " + std::to_string(db_value("SELECT uidnext FROM mailboxes WHERE id = " + inbox)) +
                      "] Predicted next UID");
  EXPECT_TRUE(std::regex_match(l[7], std::regex(R"(\* OK \[HIGHESTMODSEQ [1-9][0-9]*\] .*)")));
  EXPECT_EQ(l[8], "a1 OK [READ-WRITE] SELECT completed");
  const auto e = lines(say(s, "a2 EXAMINE \"INBOX\""));
  EXPECT_EQ(e[1], "* OK [PERMANENTFLAGS ()] Read-only mailbox.");
  EXPECT_EQ(e.back(), "a2 OK [READ-ONLY] EXAMINE completed");
}

TEST_P(Session, FetchOverSequenceSets) {
  login();
  say(s, "a1 SELECT INBOX");
  auto l = lines(say(s, "a2 FETCH 3,1:2 (FLAGS)"));
  ASSERT_EQ(l.size(), 4u);
  EXPECT_TRUE(std::regex_match(l[0], std::regex(R"(\* 1 FETCH \(FLAGS \(.*\)\))")));
  EXPECT_EQ(l[2].rfind("* 3 FETCH", 0), 0u);
  l = lines(say(s, "a3 FETCH * UID"));
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].rfind("* 400 FETCH (UID ", 0), 0u);
  const std::string last_uid = std::regex_replace(l[0], std::regex(R"(.*UID (\d+)\))"), "$1");
  l = lines(say(s, "a4 UID FETCH " + last_uid + ":* (UID FLAGS)"));
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].rfind("* 400 FETCH (UID " + last_uid + " FLAGS (", 0), 0u);
  EXPECT_EQ(lines(say(s, "a5 UID FETCH 1:* FLAGS")).size(), 401u);  // UID FETCH always answers UID
  EXPECT_EQ(lines(say(s, "a6 uid fetch 999990:999999 flags")), std::vector<std::string>{"a6 OK UID FETCH completed"});
  for (const char* bad :
       {"b1 FETCH 0 FLAGS", "b2 FETCH 401 FLAGS", "b3 FETCH 1:x FLAGS", "b4 FETCH 1 BODY[]", "b5 FETCH 1"})
    EXPECT_EQ(say(s, bad).substr(3, 3), "BAD") << bad;
}

TEST_P(Session, RefusalsKeepTheSessionUsable) {
  EXPECT_EQ(say(s, "a1 SELECT INBOX").rfind("a1 BAD", 0), 0u);  // not logged in
  EXPECT_EQ(say(s, "a2 LOGIN alice@example.test wrong"), "a2 NO [AUTHENTICATIONFAILED] Authentication failed.\r\n");
  EXPECT_EQ(say(s, "a3 LOGIN nobody imap-select-pw").rfind("a3 NO", 0), 0u);
  EXPECT_EQ(say(s, "a4 LOGIN onlyone").rfind("a4 BAD", 0), 0u);
  EXPECT_EQ(say(s, "a5 FROBNICATE").rfind("a5 BAD", 0), 0u);
  EXPECT_EQ(say(s, "").rfind("* BAD", 0), 0u);
  EXPECT_EQ(say(s, "a6 CAPABILITY"), "* CAPABILITY IMAP4rev1 LITERAL+ CONDSTORE\r\na6 OK CAPABILITY completed\r\n");
  ASSERT_EQ(login().rfind("a0 OK", 0), 0u);
  EXPECT_EQ(say(s, "a7 FETCH 1 FLAGS").rfind("a7 BAD", 0), 0u);  // nothing selected
  say(s, "a8 SELECT INBOX");
  EXPECT_EQ(say(s, "a9 SELECT Nope").rfind("a9 NO [NONEXISTENT]", 0), 0u);
  EXPECT_EQ(say(s, "b1 FETCH 1 FLAGS").rfind("b1 BAD", 0), 0u);  // the failed SELECT deselected
  EXPECT_EQ(say(s, "b2 UID STORE 1 +FLAGS (\\Seen)").rfind("b2 BAD", 0), 0u);
  EXPECT_EQ(say(s, "b3 NOOP"), "b3 OK NOOP completed\r\n");
  EXPECT_EQ(say(s, "b4 LOGOUT"), "* BYE Logging out\r\nb4 OK LOGOUT completed\r\n");
  EXPECT_TRUE(s.logged_out());
}

INSTANTIATE_TEST_SUITE_P(Variants, Session, ::testing::Values("before", "after"));

}  // namespace
}  // namespace imap_select
