#include "imap_command.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace imap_select {

CommandReader::CommandReader(ReadFn read, WriteFn write, std::size_t max_line, std::size_t max_literal,
                             std::size_t max_command)
    : read_(std::move(read)),
      write_(std::move(write)),
      max_line_(max_line),
      max_literal_(max_literal),
      max_command_(max_command) {}

bool CommandReader::fill() {
  if (pos_ > 0 && pos_ == buf_.size()) {
    buf_.clear();
    pos_ = 0;
  }
  char chunk[16384];
  const std::size_t n = read_(chunk, sizeof chunk);
  if (n == 0) return false;
  buf_.append(chunk, n);
  return true;
}

CommandReader::Status CommandReader::read_line(std::string& line) {
  bool discarding = false;
  for (;;) {
    const auto nl = buf_.find('\n', pos_);
    if (nl != std::string::npos) {
      if (discarding) {
        pos_ = nl + 1;
        return Status::TooLong;
      }
      std::size_t end = nl;
      if (end > pos_ && buf_[end - 1] == '\r') --end;
      line.assign(buf_, pos_, end - pos_);
      pos_ = nl + 1;
      return Status::Ok;
    }
    if (buf_.size() - pos_ > max_line_) {  // drop what we hold; keep draining to the newline
      discarding = true;
      buf_.clear();
      pos_ = 0;
    }
    if (!fill()) return Status::Closed;
  }
}

bool CommandReader::read_exact(std::size_t n, std::string* into) {
  while (n > 0) {
    if (pos_ == buf_.size() && !fill()) return false;
    const std::size_t take = std::min(n, buf_.size() - pos_);
    if (into) into->append(buf_, pos_, take);
    pos_ += take;
    n -= take;
  }
  return true;
}

namespace {
// The {n} or {n+} a line ends with: (n, non-synchronising).
std::optional<std::pair<std::size_t, bool>> trailing_literal(std::string_view line) {
  if (line.size() < 3 || line.back() != '}') return std::nullopt;
  const auto open = line.rfind('{');
  if (open == std::string_view::npos) return std::nullopt;
  std::string_view digits = line.substr(open + 1, line.size() - open - 2);
  const bool plus = !digits.empty() && digits.back() == '+';
  if (plus) digits.remove_suffix(1);
  std::size_t n = 0;
  const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size()) return std::nullopt;
  return std::make_pair(n, plus);
}
}  // namespace

CommandReader::Status CommandReader::next(RawCommand& out) {
  out.lines.clear();
  out.literals.clear();
  std::size_t total = 0;
  for (;;) {
    std::string line;
    if (auto s = read_line(line); s != Status::Ok) return s;
    total += line.size();
    const auto lit = trailing_literal(line);
    out.lines.push_back(std::move(line));
    if (!lit) return Status::Ok;
    const auto [n, plus] = *lit;
    if (n > max_literal_ || total + n > max_command_) {
      // A synchronising literal is never sent without our "+": refusing it is enough. A
      // non-synchronising one is on its way: drain it and the rest of its command's line.
      if (plus) {
        std::string rest;
        if (!read_exact(n, nullptr) || read_line(rest) == Status::Closed) return Status::Closed;
      }
      return Status::TooLong;
    }
    if (!plus) write_("+ Ready for literal data\r\n");
    std::string data;
    data.reserve(n);
    if (!read_exact(n, &data)) return Status::Closed;
    total += n;
    out.literals.push_back(std::move(data));
  }
}

namespace {

// A cursor over the command's lines and literals.
class Tokenizer {
 public:
  explicit Tokenizer(const RawCommand& raw) : raw_(raw) {}
  bool at_end() const { return line_ + 1 >= raw_.lines.size() && pos_ >= cur().size(); }
  bool at_space() const { return pos_ < cur().size() && cur()[pos_] == ' '; }
  void skip_spaces() {
    while (at_space()) ++pos_;
  }
  // One argument; nullopt with `error` set when malformed.
  std::optional<Token> token(std::string& error, int depth = 0) {
    if (depth > 8) return fail(error, "lists nested too deeply");
    if (pos_ >= cur().size()) return fail(error, "missing argument");
    const char c = cur()[pos_];
    if (c == '"') return quoted(error);
    if (c == '(') {
      ++pos_;
      Token list{Token::Kind::List, {}, {}};
      for (skip_spaces(); pos_ < cur().size() && cur()[pos_] != ')'; skip_spaces()) {
        auto t = token(error, depth + 1);
        if (!t) return std::nullopt;
        list.items.push_back(std::move(*t));
      }
      if (pos_ >= cur().size()) return fail(error, "unterminated list");
      ++pos_;
      return list;
    }
    if (c == '{' && line_ < raw_.literals.size() && cur().find('}', pos_) == cur().size() - 1) {
      Token t{Token::Kind::String, raw_.literals[line_], {}};
      ++line_;
      pos_ = 0;
      return t;
    }
    const std::size_t start = pos_;
    while (pos_ < cur().size() && cur()[pos_] != ' ' && cur()[pos_] != '(' && cur()[pos_] != ')' &&
           cur()[pos_] != '"' && static_cast<unsigned char>(cur()[pos_]) > 0x1f && cur()[pos_] != 0x7f)
      ++pos_;
    if (pos_ == start) return fail(error, "unexpected character");
    return Token{Token::Kind::Atom, cur().substr(start, pos_ - start), {}};
  }

 private:
  const std::string& cur() const { return raw_.lines[line_]; }
  static std::optional<Token> fail(std::string& error, const char* why) {
    error = why;
    return std::nullopt;
  }
  std::optional<Token> quoted(std::string& error) {
    std::string s;
    for (++pos_; pos_ < cur().size(); ++pos_) {
      char c = cur()[pos_];
      if (c == '"') {
        ++pos_;
        return Token{Token::Kind::String, std::move(s), {}};
      }
      if (c == '\\') {
        if (++pos_ >= cur().size() || (cur()[pos_] != '\\' && cur()[pos_] != '"'))
          return fail(error, "bad escape in quoted string");
        c = cur()[pos_];
      }
      s += c;
    }
    return fail(error, "unterminated quoted string");
  }
  const RawCommand& raw_;
  std::size_t line_ = 0, pos_ = 0;
};

}  // namespace

std::optional<Command> parse_command(const RawCommand& raw, std::string& tag, std::string& error) {
  if (raw.lines.empty() || raw.lines[0].empty()) {
    error = "Empty command line";
    return std::nullopt;
  }
  Tokenizer t(raw);
  auto first = t.token(error);
  if (!first || first->kind != Token::Kind::Atom || first->text.find_first_of("*+{%\\") != std::string::npos) {
    error = "Invalid tag";
    return std::nullopt;
  }
  tag = first->text;
  Command cmd;
  cmd.tag = tag;
  if (!t.at_space()) {
    error = "Missing command";
    return std::nullopt;
  }
  t.skip_spaces();
  auto name = t.token(error);
  if (!name || name->kind != Token::Kind::Atom) {
    error = "Missing command";
    return std::nullopt;
  }
  cmd.name = name->text;
  for (auto& ch : cmd.name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  while (!t.at_end()) {
    if (!t.at_space()) {
      error = "Expected a space between arguments";
      return std::nullopt;
    }
    t.skip_spaces();
    if (t.at_end()) break;
    auto arg = t.token(error);
    if (!arg) return std::nullopt;
    cmd.args.push_back(std::move(*arg));
  }
  return cmd;
}

std::optional<std::vector<std::pair<std::uint32_t, std::uint32_t>>> parse_sequence_set(std::string_view s,
                                                                                       std::uint32_t star) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  auto number = [&](std::string_view n) -> std::optional<std::uint32_t> {
    if (n == "*") return star;
    std::uint32_t v = 0;
    const auto [p, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
    if (n.empty() || ec != std::errc() || p != n.data() + n.size() || v == 0) return std::nullopt;
    return v;
  };
  if (s.empty()) return std::nullopt;
  while (!s.empty()) {
    const auto comma = s.find(',');
    const std::string_view item = s.substr(0, comma);
    const auto colon = item.find(':');
    const auto a = number(item.substr(0, colon));
    const auto b = colon == std::string_view::npos ? a : number(item.substr(colon + 1));
    if (!a || !b) return std::nullopt;
    ranges.emplace_back(std::min(*a, *b), std::max(*a, *b));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
    if (s.empty()) return std::nullopt;  // a trailing comma
  }
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> merged;
  for (const auto& r : ranges)
    if (!merged.empty() && r.first <= merged.back().second + 1ULL)
      merged.back().second = std::max(merged.back().second, r.second);
    else
      merged.push_back(r);
  return merged;
}

}  // namespace imap_select
