#include "plan/hyperfine_shell.hpp"

#include <array>
#include <filesystem>
#include <string_view>

#include "common/errors.hpp"

namespace perfgate::plan {

namespace {

// The shells of Debian's archive and hyperfine's two words; a command named like one of them is
// not what anyone benchmarks with a bare --shell.
constexpr std::array<std::string_view, 17> kShells = {"sh",      "bash", "dash", "zsh",     "ksh",  "mksh",
                                                      "fish",    "tcsh", "csh",  "ash",     "yash", "posh",
                                                      "busybox", "pwsh", "nu",   "default", "none"};

bool takes_a_shell(const std::string& command) { return command == "ab" || command == "bisect"; }

}  // namespace

bool names_a_shell(const std::string& words) {
  const auto first = words.substr(0, words.find_first_of(" \t"));
  if (first.empty()) return false;
  const std::string name = std::filesystem::path(first).filename().string();
  for (const auto& s : kShells)
    if (name == s) return true;
  return false;
}

std::vector<std::string> with_hyperfine_shell(std::vector<std::string> args) {
  if (args.size() < 2 || !takes_a_shell(args[1])) return args;
  std::vector<std::string> out(args.begin(), args.begin() + 2);
  for (std::size_t i = 2; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {  // bisect's command follows: its words are its own
      out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    if (a == "-N" && args[1] == "bisect") {  // hyperfine's alias, which `ab` declares itself
      out.push_back("--shell=none");
      continue;
    }
    if (a == "-S" || a == "--shell") {
      const bool next = i + 1 < args.size() && args[i + 1] != "--";
      if (a == "-S" && !next) throw UsageError("-S needs a shell: -S SHELL (e.g. -S bash; -S none runs no shell)");
      if (next && (a == "-S" || names_a_shell(args[i + 1]))) {
        out.push_back("--shell=" + args[++i]);
        continue;
      }
    } else if (a.rfind("-S", 0) == 0 && a.size() > 2) {
      out.push_back("--shell=" + a.substr(a[2] == '=' ? 3 : 2));
      continue;
    }
    out.push_back(a);
  }
  return out;
}

}  // namespace perfgate::plan
