#include "seed.hpp"

#include <time.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <random>
#include <stdexcept>

#include "imap_format.hpp"
#include "mail_db.hpp"

namespace imap_select {

namespace fs = std::filesystem;

namespace {

// mt19937_64's output is fixed by the standard (the distributions are not), so the cache is
// the same on every machine when only raw draws are used.
struct Draw {
  std::mt19937_64 engine;
  std::uint64_t below(std::uint64_t n) { return engine() % n; }
  bool chance(double p) { return static_cast<double>(engine() >> 11) * 0x1.0p-53 < p; }
};

constexpr std::array<const char*, 12> kTopics = {"invoice",       "meeting notes",  "release plan", "newsletter",
                                                 "travel",        "build failed",   "lunch?",       "contract",
                                                 "weekly digest", "password reset", "photos",       "quarterly report"};

// Upstream servers send flags in no particular order: the cache keeps them as received.
std::string upstream_flags(Draw& d, bool recent_part) {
  std::string f;
  auto add = [&](const char* name) { f += f.empty() ? name : std::string(" ") + name; };
  if (d.chance(0.05)) add("\\Flagged");
  if (d.chance(recent_part ? 0.5 : 0.97)) add("\\Seen");
  if (d.chance(0.12)) add("\\Answered");
  if (d.chance(0.02)) add("\\Deleted");
  if (d.chance(0.003)) add("\\Draft");
  if (d.chance(0.03)) add("$Forwarded");
  if (d.chance(0.01)) add("$Junk");
  return f;
}

struct MailboxPlan {
  const char* account;
  const char* name;
  std::int64_t messages;
};

}  // namespace

SeedParams SeedParams::from_json(const nlohmann::json& j) {
  const SeedParams d;
  const SeedParams p{j.value("messages", d.messages), j.value("other_messages", d.other_messages),
                     j.value("seed", d.seed)};
  if (p.messages < 0 || p.other_messages < 0) throw std::invalid_argument("messages and other_messages must be >= 0");
  return p;
}

std::string imap_date(std::int64_t unix_seconds) {
  const time_t t = static_cast<time_t>(unix_seconds);
  struct tm tm_utc {};
  gmtime_r(&t, &tm_utc);
  static constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char buf[40];
  std::snprintf(buf, sizeof buf, "%02d-%s-%04d %02d:%02d:%02d +0000", tm_utc.tm_mday, kMonths[tm_utc.tm_mon],
                tm_utc.tm_year + 1900, tm_utc.tm_hour, tm_utc.tm_min, tm_utc.tm_sec);
  return buf;
}

nlohmann::json seed_fixture(const SeedParams& p, const std::string& dir) {
  fs::create_directories(dir);
  const fs::path path = fs::path(dir) / kCacheFile;
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path.string() + suffix);
  Db db(path.string(), Db::Mode::Create);
  db.exec(kSchema);
  db.exec("BEGIN");
  Statement(db, "INSERT INTO users (id, login, password) VALUES (1, ?1, ?2)").bind(1, kUser).bind(2, kPassword).step();
  const std::array<const char*, 3> accounts = {"personal", "work", "lists"};
  for (std::size_t a = 0; a < accounts.size(); ++a)
    Statement(db, "INSERT INTO accounts (id, user_id, name) VALUES (?1, 1, ?2)")
        .bind(1, static_cast<std::int64_t>(a + 1))
        .bind(2, accounts[a])
        .step();
  const std::array<MailboxPlan, 7> plan = {{{"personal", "INBOX", p.messages},
                                            {"personal", "Sent", p.other_messages},
                                            {"personal", "Archive", p.other_messages},
                                            {"personal", "Drafts", p.other_messages / 10},
                                            {"work", "INBOX", p.other_messages},
                                            {"work", "Sent", p.other_messages},
                                            {"lists", "INBOX", p.other_messages}}};
  Statement add_mailbox(db,
                        "INSERT INTO mailboxes (id, account_id, name, uidvalidity, uidnext, highestmodseq, "
                        "recent_from_uid) VALUES (?1, (SELECT id FROM accounts WHERE name = ?2), ?3, ?4, ?5, ?6, ?5)");
  Statement add_message(db,
                        "INSERT INTO messages (mailbox_id, uid, modseq, flags, internal_date, size, message_id, "
                        "subject) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  Draw d{std::mt19937_64(p.seed)};
  std::int64_t total = 0;
  for (std::size_t m = 0; m < plan.size(); ++m) {
    const auto mailbox_id = static_cast<std::int64_t>(m + 1);
    const std::int64_t n = plan[m].messages;
    std::int64_t uid = 0, modseq = 0, when = 1704067200 + static_cast<std::int64_t>(d.below(86400));
    for (std::int64_t i = 0; i < n; ++i) {
      uid += 1 + (d.below(25) == 0 ? static_cast<std::int64_t>(d.below(4)) : 0);  // expunged gaps
      when += 60 + static_cast<std::int64_t>(d.below(3600));
      modseq = d.chance(0.05) ? modseq + 2 : modseq + 1;  // a later flag change bumped it
      const std::string mid = "<" + std::to_string(mailbox_id) + "." + std::to_string(uid) + "@mail.example.test>";
      add_message.bind(1, mailbox_id)
          .bind(2, uid)
          .bind(3, modseq)
          .bind(4, upstream_flags(d, i >= n - n / 10))
          .bind(5, imap_date(when))
          .bind(6, static_cast<std::int64_t>(900 + d.below(250000)))
          .bind(7, mid)
          .bind(8, std::string(kTopics[d.below(kTopics.size())]) + " #" + std::to_string(i));
      add_message.step();
      add_message.reset();
    }
    total += n;
    add_mailbox.bind(1, mailbox_id)
        .bind(2, plan[m].account)
        .bind(3, plan[m].name)
        .bind(4, static_cast<std::int64_t>(1700000000 + 7919 * mailbox_id + d.below(1000)))
        .bind(5, uid + 1)
        .bind(6, std::max<std::int64_t>(modseq, 1));
    add_mailbox.step();
    add_mailbox.reset();
  }
  db.exec("COMMIT");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return {{"messages", total},
          {"inbox_messages", p.messages},
          {"mailboxes", plan.size()},
          {"accounts", accounts.size()},
          {"bytes", fs::file_size(path)}};
}

}  // namespace imap_select
