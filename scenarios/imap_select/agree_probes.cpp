#include "agree_probes.hpp"

#include <atomic>
#include <latch>
#include <stdexcept>
#include <thread>
#include <vector>

#include "mail_db.hpp"

namespace imap_select {

namespace {

// Every line of one answer under `label`, the tagged one last, whatever its status.
ImapAnswer logged(ImapClient& c, perfgate::OutputLog& log, const std::string& label, const std::string& command) {
  ImapAnswer a = c.command(command);
  for (const auto& line : a.untagged) log.line(label + " " + line);
  log.line(label + " " + a.tagged);
  return a;
}

// The number in "* <n> <word>" or "* OK [<word> <n>]"; 0 when the answer has no such line.
std::uint64_t number_of(const ImapAnswer& a, const std::string& word) {
  for (const auto& line : a.untagged) {
    const std::string tail = " " + word;
    if (line.size() > tail.size() && line.compare(line.size() - tail.size(), tail.size(), tail) == 0)
      return std::stoull(line.substr(2));
    const std::string code = "* OK [" + word + " ";
    if (line.rfind(code, 0) == 0) return std::stoull(line.substr(code.size()));
  }
  return 0;
}

// One SELECT and its FETCH checked against each other; "" when they agree.
std::string consistent(const ImapAnswer& select, const ImapAnswer& fetch) {
  if (!select.ok() || !fetch.ok()) return "refused: " + select.tagged + " / " + fetch.tagged;
  const auto exists = number_of(select, "EXISTS");
  const auto uidnext = number_of(select, "UIDNEXT");
  const auto unseen = number_of(select, "UNSEEN");
  if (fetch.untagged.size() != exists)
    return "SELECT said " + std::to_string(exists) + " EXISTS, FETCH 1:* answered " +
           std::to_string(fetch.untagged.size()) + " messages";
  std::uint64_t last_uid = 0, first_unseen = 0;
  for (std::size_t i = 0; i < fetch.untagged.size(); ++i) {
    const std::string& line = fetch.untagged[i];
    const std::string head = "* " + std::to_string(i + 1) + " FETCH (UID ";
    if (line.rfind(head, 0) != 0) return "FETCH line " + std::to_string(i + 1) + " is '" + line + "'";
    const std::uint64_t uid = std::stoull(line.substr(head.size()));
    if (uid <= last_uid || uid >= uidnext)
      return "FETCH line " + std::to_string(i + 1) + " has UID " + std::to_string(uid) + " (previous " +
             std::to_string(last_uid) + ", SELECT's UIDNEXT " + std::to_string(uidnext) + ")";
    last_uid = uid;
    if (first_unseen == 0 && line.find("\\Seen") == std::string::npos) first_unseen = i + 1;
  }
  if (first_unseen != unseen)
    return "SELECT said UNSEEN " + std::to_string(unseen) + ", FETCH's first unseen message is " +
           std::to_string(first_unseen);
  return "";
}

}  // namespace

void refusals(const std::string& target, perfgate::OutputLog& log) {
  ImapClient c(target);  // never logged in
  logged(c, log, "refusal", "SELECT INBOX");
  logged(c, log, "refusal", "FETCH 1:* (UID FLAGS)");
  logged(c, log, "refusal", std::string("LOGIN \"") + kUser + "\" \"not-" + kPassword + "\"");
  logged(c, log, "refusal", std::string("LOGIN \"nobody@example.test\" \"") + kPassword + "\"");
  logged(c, log, "refusal", "SELECT INBOX");
}

void bad_inputs(ImapClient& c, perfgate::OutputLog& log) {
  logged(c, log, "bad-input", "SELECT NoSuchBox");
  // Only INBOX is case-insensitive (RFC 3501 5.1): "inbox" is the INBOX, "SENT" is no mailbox.
  logged(c, log, "bad-input", "SELECT inbox");
  logged(c, log, "bad-input", "SELECT SENT");
  logged(c, log, "bad-input", "FETCH 1:* (UID FLAGS)");  // that failed SELECT left nothing selected
  const ImapAnswer select = logged(c, log, "bad-input", "SELECT INBOX");
  if (!select.ok()) throw std::runtime_error("SELECT INBOX: " + select.tagged);
  logged(c, log, "bad-input", "FETCH 1:" + std::to_string(number_of(select, "EXISTS") + 1) + " (UID FLAGS)");
  logged(c, log, "bad-input", "UID FETCH 1:* (BODY[])");
}

void cache_rows(ImapClient& c, perfgate::OutputLog& log) {
  const ImapAnswer status = c.command("XWRITER STATUS");
  const std::string key = " CACHE ";
  const auto at = status.untagged.empty() ? std::string::npos : status.untagged[0].find(key);
  if (!status.ok() || at == std::string::npos)
    throw std::runtime_error("XWRITER STATUS named no cache: " + status.tagged);
  Db db(status.untagged[0].substr(at + key.size()), Db::Mode::ReadOnly);
  const std::int64_t inbox = find_mailbox(list_mailboxes(db), "INBOX");
  Statement mailbox(db, "SELECT uidvalidity, uidnext, highestmodseq, recent_from_uid FROM mailboxes WHERE id = ?1");
  Statement messages(db,
                     "SELECT uid, modseq, flags, internal_date, size, message_id, subject FROM messages "
                     "WHERE mailbox_id = ?1 ORDER BY uid");
  Transaction read(db);
  if (!mailbox.bind(1, inbox).step()) throw std::runtime_error("the cache has no INBOX row");
  log.line("cache INBOX uidvalidity " + std::to_string(mailbox.i64(0)) + " uidnext " + std::to_string(mailbox.i64(1)) +
           " highestmodseq " + std::to_string(mailbox.i64(2)) + " recent_from_uid " + std::to_string(mailbox.i64(3)));
  perfgate::Digest rows;  // one line for the rows: the FETCH lines already list the INBOX
  std::size_t n = 0;
  for (messages.bind(1, inbox); messages.step(); ++n) {
    for (int col : {0, 1, 4}) rows.field(std::to_string(messages.i64(col)));
    for (int col : {2, 3, 5, 6}) rows.field(messages.text(col));
  }
  read.commit();
  log.line("cache INBOX messages " + std::to_string(n) + " rows " + rows.hex());
}

RaceResult race(const std::string& target, int sessions, double ms) {
  std::vector<std::unique_ptr<ImapClient>> clients;
  for (int i = 0; i < sessions; ++i) {
    clients.push_back(std::make_unique<ImapClient>(target));
    clients.back()->login(kUser, kPassword);
  }
  std::vector<std::string> mismatch(clients.size()), errors(clients.size());
  std::atomic<std::size_t> rounds{0};
  std::latch start(static_cast<std::ptrdiff_t>(clients.size()));
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < clients.size(); ++i)
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      const perfgate::Stopwatch clock;
      try {
        do {  // at least one round each, however slow the variant
          const ImapAnswer select = clients[i]->command("SELECT INBOX");
          mismatch[i] = consistent(select, clients[i]->command("FETCH 1:* (UID FLAGS)"));
          ++rounds;
        } while (mismatch[i].empty() && clock.ms() < ms);
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (!e.empty()) throw std::runtime_error("race session: " + e);
  RaceResult r;
  r.rounds = rounds;
  for (std::size_t i = 0; i < mismatch.size() && r.mismatch.empty(); ++i)
    if (!mismatch[i].empty()) r.mismatch = "session " + std::to_string(i + 1) + ": " + mismatch[i];
  return r;
}

}  // namespace imap_select
