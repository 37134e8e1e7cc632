// hyperfine's spellings of its shell option, as Debian's hyperfine 1.15 takes them — `-S SHELL`,
// `-SSHELL`, `-S=SHELL`, `--shell SHELL`, `--shell=SHELL` — rewritten into perfgate's one
// spelling, `--shell=SHELL`, before the command line is parsed. perfgate's bare `--shell`
// (sh -c) stays, and bisect takes hyperfine's `-N` too: `--shell WORD` takes WORD as the shell only when its first word
// names a shell (sh, bash, zsh, …, or hyperfine's `default` and `none`), since a bare `--shell` is often followed by a
// command (`perfgate ab --shell 'a | b' 'c | d'`). Only `ab` and `bisect` take a shell, and only before bisect's `--`.
#pragma once

#include <string>
#include <vector>

namespace perfgate::plan {

// Whether `words`' first word is a shell hyperfine's --shell would be given (by name or path).
bool names_a_shell(const std::string& words);

// `args` (argv, the program first) with every hyperfine spelling of the shell as `--shell=SHELL`.
// A `-S` with nothing after it is a UsageError.
std::vector<std::string> with_hyperfine_shell(std::vector<std::string> args);

}  // namespace perfgate::plan
