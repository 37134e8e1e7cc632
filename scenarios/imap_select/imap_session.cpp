#include "imap_session.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "imap_format.hpp"

namespace imap_select {

namespace {

constexpr const char* kCapabilities = "IMAP4rev1 LITERAL+ CONDSTORE";

bool is_astring(const Token& t) { return t.kind != Token::Kind::List; }

std::string upper(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

// The first sequence index (0-based) whose UID is >= uid.
std::size_t lower_bound_uid(const MailboxView& v, std::uint32_t uid) {
  std::size_t lo = 0, hi = v.state().exists;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (v.uid(mid) < uid)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace

std::string ImapSession::greeting() {
  return std::string("* OK [CAPABILITY ") + kCapabilities + "] imap_select ready\r\n";
}

std::string ImapSession::too_long() { return "* BAD Command line too long\r\n"; }

std::string ImapSession::handle(const RawCommand& raw) {
  std::string tag, error;
  const auto cmd = parse_command(raw, tag, error);
  if (!cmd) return (tag.empty() ? "*" : tag) + " BAD " + error + "\r\n";
  try {
    return dispatch(*cmd);
  } catch (const std::exception& e) {
    return cmd->tag + " NO [SERVERBUG] " + e.what() + "\r\n";
  }
}

std::string ImapSession::dispatch(const Command& c) {
  const std::string& n = c.name;
  const std::string bad = c.tag + " BAD ";
  if (n == "CAPABILITY" || n == "NOOP" || n == "LOGOUT") {
    if (!c.args.empty()) return bad + n + " takes no arguments\r\n";
    if (n == "CAPABILITY")
      return std::string("* CAPABILITY ") + kCapabilities + "\r\n" + c.tag + " OK CAPABILITY completed\r\n";
    if (n == "NOOP") return c.tag + " OK NOOP completed\r\n";
    logged_out_ = true;
    return "* BYE Logging out\r\n" + c.tag + " OK LOGOUT completed\r\n";
  }
  if (n == "LOGIN") return login(c);
  if (n != "SELECT" && n != "EXAMINE" && n != "FETCH" && n != "UID" && n != "XWRITER")
    return bad + "Unknown command\r\n";
  if (!authenticated_) return bad + n + " needs LOGIN first\r\n";
  if (n == "SELECT" || n == "EXAMINE") return select(c, n == "EXAMINE");
  if (n == "FETCH") return fetch(c, 0, false);
  if (n == "UID") {
    if (c.args.empty() || c.args[0].kind != Token::Kind::Atom || upper(c.args[0].text) != "FETCH")
      return bad + "UID supports FETCH only\r\n";
    return fetch(c, 1, true);
  }
  std::vector<std::string> args;
  for (const auto& a : c.args) {
    if (!is_astring(a)) return bad + "XWRITER takes words\r\n";
    args.push_back(upper(a.text));
  }
  try {
    return "* XWRITER " + backend_.writer(args) + "\r\n" + c.tag + " OK XWRITER completed\r\n";
  } catch (const std::invalid_argument& e) {
    return bad + e.what() + "\r\n";
  } catch (const std::runtime_error& e) {
    return c.tag + " NO " + e.what() + "\r\n";
  }
}

std::string ImapSession::login(const Command& c) {
  if (authenticated_) return c.tag + " BAD Already logged in\r\n";
  if (c.args.size() != 2 || !is_astring(c.args[0]) || !is_astring(c.args[1]))
    return c.tag + " BAD LOGIN needs a user name and a password\r\n";
  if (!backend_.login(c.args[0].text, c.args[1].text))
    return c.tag + " NO [AUTHENTICATIONFAILED] Authentication failed.\r\n";
  authenticated_ = true;
  return c.tag + " OK [CAPABILITY " + kCapabilities + "] Logged in\r\n";
}

std::string ImapSession::select(const Command& c, bool read_only) {
  if (c.args.size() != 1 || !is_astring(c.args[0])) return c.tag + " BAD " + c.name + " needs one mailbox name\r\n";
  selected_.reset();  // a failed SELECT leaves no mailbox selected (RFC 3501 6.3.1)
  auto view = backend_.open(c.args[0].text);
  if (!view) return c.tag + " NO [NONEXISTENT] Mailbox doesn't exist: " + c.args[0].text + "\r\n";
  selected_ = std::move(view);
  return select_response(selected_->state(), read_only, c.tag);
}

std::string ImapSession::fetch(const Command& c, std::size_t first_arg, bool by_uid) {
  if (!selected_) return c.tag + " BAD No mailbox selected\r\n";
  if (c.args.size() != first_arg + 2 || c.args[first_arg].kind != Token::Kind::Atom)
    return c.tag + " BAD FETCH needs a sequence set and items\r\n";
  const MailboxView& v = *selected_;
  const std::uint32_t exists = v.state().exists;
  bool want_uid = by_uid, want_flags = false;
  const Token& items = c.args[first_arg + 1];
  const std::vector<Token> single{items};
  for (const Token& item : items.kind == Token::Kind::List ? items.items : single) {
    const std::string name = item.kind == Token::Kind::Atom ? upper(item.text) : "";
    if (name == "UID")
      want_uid = true;
    else if (name == "FLAGS")
      want_flags = true;
    else
      return c.tag + " BAD Unsupported FETCH item: " + item.text + " (UID and FLAGS only)\r\n";
  }
  if (!want_uid && !want_flags) return c.tag + " BAD FETCH needs items\r\n";
  const std::uint32_t star = by_uid ? (exists ? v.uid(exists - 1) : 0) : exists;
  const auto ranges = parse_sequence_set(c.args[first_arg].text, star);
  if (!ranges) return c.tag + " BAD Invalid sequence set: " + c.args[first_arg].text + "\r\n";
  std::string out;
  for (const auto& [lo, hi] : *ranges) {
    if (!by_uid) {
      if (lo == 0 || hi > exists) return c.tag + " BAD Invalid messageset\r\n";
      for (std::size_t seq = lo; seq <= hi; ++seq) append_fetch_line(out, v, seq, want_uid, want_flags);
      continue;
    }
    for (std::size_t i = lower_bound_uid(v, lo); i < exists && v.uid(i) <= hi; ++i)
      append_fetch_line(out, v, i + 1, want_uid, want_flags);
  }
  return out + c.tag + (by_uid ? " OK UID FETCH completed\r\n" : " OK FETCH completed\r\n");
}

}  // namespace imap_select
