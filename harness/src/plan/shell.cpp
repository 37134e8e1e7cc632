#include "plan/shell.hpp"

#include "common/shell_words.hpp"

namespace perfgate::plan {

namespace {

void swap_all(std::string& text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

const std::vector<std::string> kPlaceholders = {"{layout}", "{rev_dir}"};

// A placeholder while the line is split: \x1fNAME\x1f, no brace for the splitter to refuse.
std::string held(const std::string& token) { return "\x1f" + token.substr(1, token.size() - 2) + "\x1f"; }

}  // namespace

Shell Shell::from_flag(const std::string& flag) {
  Shell s;
  if (flag.empty() || flag == "none") return s;
  s.argv_ = split_command(flag == "default" ? "/bin/sh" : flag);
  return s;
}

std::vector<std::string> Shell::command(const std::string& line) const {
  if (!none()) {
    auto argv = argv_;
    argv.push_back("-c");
    argv.push_back(line);
    return argv;
  }
  std::string kept = line;
  for (const auto& token : kPlaceholders) swap_all(kept, token, held(token));
  auto words = split_command(kept);
  for (auto& w : words)
    for (const auto& token : kPlaceholders) swap_all(w, held(token), token);
  return words;
}

std::vector<std::string> Shell::command(const std::vector<std::string>& words) const {
  if (none()) return words;
  std::string line;
  for (const auto& w : words) line += (line.empty() ? "" : " ") + w;
  return command(line);
}

}  // namespace perfgate::plan
