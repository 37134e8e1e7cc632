#include "imap_format.hpp"

#include <strings.h>

namespace imap_select {

FlagBits flag_bit(std::string_view name) {
  for (std::size_t i = 0; i < kFlagCount; ++i) {
    const std::string_view f = kFlagNames[i];
    const bool system = f[0] == '\\';
    if (f.size() == name.size() && (system ? strncasecmp(f.data(), name.data(), f.size()) == 0 : f == name))
      return static_cast<FlagBits>(1u << i);
  }
  return 0;
}

FlagBits parse_flags(std::string_view text) {
  FlagBits bits = 0;
  while (!text.empty()) {
    const auto sp = text.find(' ');
    bits |= flag_bit(text.substr(0, sp));
    text = sp == std::string_view::npos ? std::string_view() : text.substr(sp + 1);
  }
  return bits;
}

std::string format_flags(FlagBits bits) {
  std::string s;
  for (std::size_t i = 0; i < kFlagCount; ++i)
    if (bits & (1u << i)) {
      if (!s.empty()) s += ' ';
      s += kFlagNames[i];
    }
  return s;
}

std::string flags_line() { return "* FLAGS (" + format_flags(static_cast<FlagBits>((1u << kFlagCount) - 1)) + ")\r\n"; }

std::string select_response(const SelectState& s, bool read_only, const std::string& tag) {
  const std::string all = format_flags(static_cast<FlagBits>((1u << kFlagCount) - 1));
  std::string r = flags_line();
  r += read_only ? "* OK [PERMANENTFLAGS ()] Read-only mailbox.\r\n"
                 : "* OK [PERMANENTFLAGS (" + all + " \\*)] Flags permitted.\r\n";
  r += "* " + std::to_string(s.exists) + " EXISTS\r\n";
  r += "* " + std::to_string(s.recent) + " RECENT\r\n";
  if (s.first_unseen) r += "* OK [UNSEEN " + std::to_string(s.first_unseen) + "] First unseen.\r\n";
  r += "* OK [UIDVALIDITY " + std::to_string(s.uidvalidity) + "] UIDs valid\r\n";
  r += "* OK [UIDNEXT " + std::to_string(s.uidnext) + "] Predicted next UID\r\n";
  r += "* OK [HIGHESTMODSEQ " + std::to_string(s.highestmodseq) + "] Highest\r\n";
  r += tag + (read_only ? " OK [READ-ONLY] EXAMINE completed\r\n" : " OK [READ-WRITE] SELECT completed\r\n");
  return r;
}

void append_fetch_line(std::string& out, const MailboxView& view, std::size_t seq, bool with_uid, bool with_flags) {
  out += "* ";
  out += std::to_string(seq);
  out += " FETCH (";
  if (with_uid) {
    out += "UID ";
    out += std::to_string(view.uid(seq - 1));
  }
  if (with_flags) {
    out += with_uid ? " FLAGS (" : "FLAGS (";
    out += format_flags(view.flags(seq - 1));
    out += ')';
  }
  out += ")\r\n";
}

}  // namespace imap_select
