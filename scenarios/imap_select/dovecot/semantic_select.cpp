#include "dovecot/semantic_select.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <stdexcept>

#include "perfgate/sample.hpp"

namespace imap_select {

namespace {

std::string trimmed(std::string line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
  if (line.rfind("* ", 0) == 0) line.erase(0, 2);
  return line;
}

// "(\Seen \Flagged $Forwarded)" → the sorted set, case kept (keywords are case-sensitive to
// compare here; system flags are spelt one way by both servers).
std::string flag_set(const std::string& list, bool drop_recent) {
  std::set<std::string> flags;
  std::string word;
  for (char ch : list + " ") {
    if (ch == ' ' || ch == '(' || ch == ')') {
      if (!word.empty() && !(drop_recent && word == "\\Recent")) flags.insert(word);
      word.clear();
    } else {
      word += ch;
    }
  }
  std::string out = "(";
  for (const auto& f : flags) out += (out.size() > 1 ? " " : "") + f;
  return out + ")";
}

// The parenthesised list that starts at `open` (no nesting in flag lists).
std::string list_at(const std::string& line, std::size_t open) {
  const auto close = line.find(')', open);
  if (open == std::string::npos || close == std::string::npos) throw std::runtime_error("no flag list in: " + line);
  return line.substr(open, close - open + 1);
}

}  // namespace

std::string semantic_view(const std::vector<std::string>& select_lines, const std::vector<std::string>& fetch_lines) {
  static const std::regex exists(R"(^(\d+) EXISTS$)", std::regex::icase);
  static const std::regex code(R"(^OK \[(UNSEEN|UIDVALIDITY|UIDNEXT) (\d+)\])", std::regex::icase);
  std::string n_exists = "?", unseen = "none", uidvalidity = "?", uidnext = "?", flags = "?", permanent = "?";
  for (const auto& raw : select_lines) {
    const std::string line = trimmed(raw);
    std::smatch m;
    if (std::regex_search(line, m, exists)) {
      n_exists = m[1];
    } else if (std::regex_search(line, m, code)) {
      std::string name = m[1];
      std::transform(name.begin(), name.end(), name.begin(), ::toupper);
      (name == "UNSEEN" ? unseen : name == "UIDVALIDITY" ? uidvalidity : uidnext) = m[2];
    } else if (line.rfind("FLAGS ", 0) == 0) {
      flags = flag_set(list_at(line, line.find('(')), false);
    } else if (line.rfind("OK [PERMANENTFLAGS ", 0) == 0) {
      permanent = flag_set(list_at(line, line.find('(')), false);
    }
  }
  // Every message in sequence order: its UID and its flags as a set. Read by hand, not by
  // std::regex: a 100,000-line FETCH would take seconds.
  perfgate::Digest messages;
  std::size_t count = 0;
  for (const auto& raw : fetch_lines) {
    const std::string line = trimmed(raw);
    const auto items = line.find(" FETCH (");
    const auto uid = line.find("UID ", items == std::string::npos ? 0 : items);
    const auto flags_at = line.find("FLAGS (", items == std::string::npos ? 0 : items);
    if (items == std::string::npos || uid == std::string::npos || flags_at == std::string::npos ||
        line.find_first_not_of("0123456789") != items)
      throw std::runtime_error("not a FETCH response with UID and FLAGS: " + line);
    const auto uid_end = line.find_first_not_of("0123456789", uid + 4);
    messages.field(line.substr(0, items) + " " + line.substr(uid + 4, uid_end - uid - 4) + " " +
                   flag_set(list_at(line, flags_at + 6), true));
    ++count;
  }
  return "EXISTS=" + n_exists + " UNSEEN=" + unseen + " UIDVALIDITY=" + uidvalidity + " UIDNEXT=" + uidnext +
         " FLAGS=" + flags + " PERMANENTFLAGS=" + permanent + " MESSAGES=" + std::to_string(count) + "/" +
         messages.hex();
}

}  // namespace imap_select
