#include "common/shell_words.hpp"

#include <wordexp.h>

#include "common/errors.hpp"

namespace perfgate {

std::string shell_quote(const std::string& s) {
  static const char* plain = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./=:,+@%";
  if (!s.empty() && s.find_first_not_of(plain) == std::string::npos) return s;
  // Inside single quotes nothing is special except the quote itself: close, escape, reopen.
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string join_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + shell_quote(a);
  return out;
}

std::vector<std::string> split_command(const std::string& command) {
  wordexp_t we{};
  int rc = wordexp(command.c_str(), &we, WRDE_NOCMD);
  if (rc != 0) {
    if (rc == 0 || rc == WRDE_NOSPACE) wordfree(&we);
    const char* why = rc == WRDE_BADCHAR  ? "an unquoted | & ; < > ( ) { } or newline (use --shell)"
                      : rc == WRDE_CMDSUB ? "a command substitution (use --shell)"
                      : rc == WRDE_SYNTAX ? "unbalanced quotes"
                                          : "an expansion error";
    throw UsageError("cannot split the command '" + command + "': it has " + why);
  }
  std::vector<std::string> words(we.we_wordv, we.we_wordv + we.we_wordc);
  wordfree(&we);
  if (words.empty()) throw UsageError("empty command");
  return words;
}

}  // namespace perfgate
