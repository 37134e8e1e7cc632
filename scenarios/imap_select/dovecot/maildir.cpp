#include "dovecot/maildir.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "mail_db.hpp"

namespace imap_select::dovecot {

namespace fs = std::filesystem;

namespace {

// Maildir's info letters for IMAP's system flags (cr.yp.to/proto/maildir.html; Dovecot's T
// for \Deleted).
const std::map<std::string, char> kSystemFlags = {
    {"\\Draft", 'D'}, {"\\Flagged", 'F'}, {"\\Answered", 'R'}, {"\\Seen", 'S'}, {"\\Deleted", 'T'}};

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// IMAP date-time "17-Jul-2026 02:44:25 +0000" → Unix time (the seeder writes +0000).
std::time_t unix_time(std::string_view date) {
  std::tm tm{};
  if (!strptime(std::string(date).c_str(), "%d-%b-%Y %H:%M:%S", &tm))
    throw std::runtime_error("unreadable internal_date '" + std::string(date) + "'");
  return timegm(&tm);
}

void write_owned(const fs::path& path, const std::string& content, uid_t uid, gid_t gid, std::time_t mtime) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot create " + path.string() + ": " + std::strerror(errno));
  const bool ok = ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size()) &&
                  ::fchown(fd, uid, gid) == 0;
  const struct timespec times[2] = {{mtime, 0}, {mtime, 0}};
  const bool timed = mtime == 0 || ::futimens(fd, times) == 0;
  ::close(fd);
  if (!ok || !timed) throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
}

}  // namespace

std::pair<std::string, std::string> fixture_login(const std::string& fixture_dir) {
  Db db((fs::path(fixture_dir) / kCacheFile).string(), Db::Mode::ReadOnly);
  Statement q(db, "SELECT login, password FROM users ORDER BY id LIMIT 1");
  if (!q.step()) throw std::runtime_error(fixture_dir + "/" + kCacheFile + ": the users table is empty");
  return {std::string(q.text(0)), std::string(q.text(1))};
}

MaildirFigures write_maildir(const std::string& fixture_dir, const fs::path& maildir, uid_t uid, gid_t gid) {
  Db db((fs::path(fixture_dir) / kCacheFile).string(), Db::Mode::ReadOnly);
  const std::int64_t inbox = find_mailbox(list_mailboxes(db), "INBOX");
  if (!inbox) throw std::runtime_error(fixture_dir + "/" + kCacheFile + ": no INBOX");
  MaildirFigures f;
  {
    Statement q(db, "SELECT uidvalidity, uidnext FROM mailboxes WHERE id = ?");
    q.bind(1, inbox).step();
    f.uidvalidity = q.i64(0);
    f.uidnext = q.i64(1);
  }
  for (const char* sub : {"", "cur", "new", "tmp"}) {
    fs::create_directories(maildir / sub);
    if (::chown((maildir / sub).c_str(), uid, gid) != 0)
      throw std::runtime_error("cannot chown " + (maildir / sub).string() + ": " + std::strerror(errno));
  }
  std::map<std::string, char> keywords;  // keyword → its letter, in order of first use
  std::ostringstream uidlist;
  Statement q(db,
              "SELECT uid, flags, internal_date, message_id, subject FROM messages WHERE mailbox_id = ? ORDER BY uid");
  q.bind(1, inbox);
  while (q.step()) {
    const std::int64_t message_uid = q.i64(0);
    std::string info;
    for (const auto& flag : words(q.text(1))) {
      if (auto s = kSystemFlags.find(flag); s != kSystemFlags.end()) {
        info += s->second;
        continue;
      }
      auto k = keywords.find(flag);
      if (k == keywords.end()) {
        if (keywords.size() == 26) throw std::runtime_error("more than 26 keywords: Maildir has no letter for " + flag);
        k = keywords.emplace(flag, static_cast<char>('a' + keywords.size())).first;
      }
      info += k->second;
    }
    std::sort(info.begin(), info.end());
    const std::time_t when = unix_time(q.text(2));
    const std::string body = "Message-ID: " + std::string(q.text(3)) + "\r\nSubject: " + std::string(q.text(4)) +
                             "\r\nFrom: sender@example.test\r\nTo: alice@example.test\r\n\r\nmessage " +
                             std::to_string(message_uid) + "\r\n";
    const std::string base =
        std::to_string(when) + ".M" + std::to_string(message_uid) + "P0.imap_select,S=" + std::to_string(body.size());
    write_owned(maildir / "cur" / (base + ":2," + info), body, uid, gid, when);
    uidlist << message_uid << " :" << base << "\n";
    ++f.messages;
  }
  std::ostringstream keyword_file;
  for (const auto& [name, letter] : keywords) keyword_file << (letter - 'a') << " " << name << "\n";
  f.keywords = keywords.size();
  write_owned(maildir / "dovecot-keywords", keyword_file.str(), uid, gid, 0);
  // Version 3, pinned UIDVALIDITY and next UID; the GUID only names the mailbox.
  char guid[33];
  std::snprintf(guid, sizeof guid, "%016llx%016llx", static_cast<unsigned long long>(f.uidvalidity),
                static_cast<unsigned long long>(inbox));
  write_owned(
      maildir / "dovecot-uidlist",
      "3 V" + std::to_string(f.uidvalidity) + " N" + std::to_string(f.uidnext) + " G" + guid + "\n" + uidlist.str(),
      uid, gid, 0);
  return f;
}

}  // namespace imap_select::dovecot
