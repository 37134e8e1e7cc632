// Reading and parsing IMAP4rev1 commands (RFC 3501 section 9): a command is a line, or
// several lines joined by literals ({n}, and LITERAL+'s {n+}); its arguments are atoms,
// quoted strings, literals and parenthesised lists.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace imap_select {

// One command as it came off the wire: the text between literals (CRLF removed); literal i
// follows lines[i] (whose end is its {n} marker).
struct RawCommand {
  std::vector<std::string> lines;
  std::vector<std::string> literals;
};

struct Token {
  enum class Kind { Atom, String, List };
  Kind kind = Kind::Atom;
  std::string text;          // Atom, String
  std::vector<Token> items;  // List
};

struct Command {
  std::string tag;
  std::string name;  // upper-cased
  std::vector<Token> args;
};

// Reads commands from a byte stream. A line longer than max_line, a literal larger than
// max_literal or a command larger than max_command is discarded (its bytes are drained up to
// the end of the line) and reported as TooLong, so the connection can go on.
class CommandReader {
 public:
  using ReadFn = std::function<std::size_t(char*, std::size_t)>;  // 0: the peer closed
  using WriteFn = std::function<void(std::string_view)>;          // the "+ " continuation
  enum class Status { Ok, TooLong, Closed };
  CommandReader(ReadFn read, WriteFn write, std::size_t max_line = 64 * 1024, std::size_t max_literal = 256 * 1024,
                std::size_t max_command = 1024 * 1024);
  Status next(RawCommand& out);

 private:
  Status read_line(std::string& line);
  bool fill();
  bool read_exact(std::size_t n, std::string* into);  // into null: drop
  ReadFn read_;
  WriteFn write_;
  std::size_t max_line_, max_literal_, max_command_;
  std::string buf_;
  std::size_t pos_ = 0;
};

// The tag, the command name and its arguments; nullopt and `error` (for a BAD) when the
// command does not parse. `tag` is filled as soon as it is known.
std::optional<Command> parse_command(const RawCommand& raw, std::string& tag, std::string& error);

// A sequence set ("1:*", "2,4:7,9") as sorted, merged, inclusive ranges; `star` is what
// "*" stands for. nullopt when malformed (0 is not a valid number).
std::optional<std::vector<std::pair<std::uint32_t, std::uint32_t>>> parse_sequence_set(std::string_view s,
                                                                                       std::uint32_t star);

}  // namespace imap_select
