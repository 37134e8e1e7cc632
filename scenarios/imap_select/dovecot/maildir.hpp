// The fixture's INBOX as a Maildir Dovecot serves unchanged: one file per message in cur/,
// flags in the ":2," suffix (D F R S T, keywords as letters a-z listed in dovecot-keywords),
// and dovecot-uidlist pinning every message's UID, the mailbox's UIDVALIDITY and UIDNEXT, so
// the two servers' SELECT and FETCH can be compared (semantic_select.hpp).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace imap_select::dovecot {

struct MaildirFigures {
  std::int64_t messages = 0, uidvalidity = 0, uidnext = 0;
  std::size_t keywords = 0;
};

// Reads DIR/mail.sqlite's INBOX and writes `maildir` (cur/ new/ tmp/, dovecot-uidlist,
// dovecot-keywords), every file owned by uid:gid (Dovecot's mail user). Throws naming the
// message or file that failed.
MaildirFigures write_maildir(const std::string& fixture_dir, const std::filesystem::path& maildir, uid_t uid,
                             gid_t gid);

// The fixture's user and password (users table): Dovecot's one passdb entry.
std::pair<std::string, std::string> fixture_login(const std::string& fixture_dir);

}  // namespace imap_select::dovecot
