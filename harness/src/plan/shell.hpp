// The shell a user's command runs through (`ab`, `bisect`), resolved once from the flags
// (--shell, -S SHELL, -N; plan/hyperfine_shell.hpp respells hyperfine's forms first), as
// hyperfine's ExecutorKind {Raw, Shell(Default | Custom)}: none, the command split into words;
// or a shell's argv, the command its -c line. The one place a command becomes argv.
#pragma once

#include <string>
#include <vector>

namespace perfgate::plan {

class Shell {
 public:
  // "" or "none": no shell; "default": /bin/sh (hyperfine's default); otherwise a shell's
  // command line ("bash --norc"), split into words. Throws UsageError on a line that cannot be.
  static Shell from_flag(const std::string& flag);
  bool none() const { return argv_.empty(); }
  const std::vector<std::string>& argv() const { return argv_; }
  // A command line as argv: with no shell its words (perfgate's placeholders {layout} and
  // {rev_dir} kept whole, though a shell would read their braces), else the shell, -c, the line.
  std::vector<std::string> command(const std::string& line) const;
  // Words already split (bisect's, after --): as they are with no shell, else joined by spaces
  // into the shell's -c line.
  std::vector<std::string> command(const std::vector<std::string>& words) const;

 private:
  std::vector<std::string> argv_;
};

}  // namespace perfgate::plan
