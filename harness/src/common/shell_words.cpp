#include "common/shell_words.hpp"

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

}  // namespace perfgate
