// Command lines and words: a line split into words as a shell would, and words written as one
// string a POSIX shell reads back into the same words (the `reproduce` fields of the results and
// the commands printed in messages).
#pragma once

#include <string>
#include <vector>

namespace perfgate {

// `s` unchanged when it holds only characters a shell leaves alone; otherwise single-quoted.
std::string shell_quote(const std::string& s);

// Every word shell-quoted, joined by spaces.
std::string join_command(const std::vector<std::string>& argv);

// Split a command line into words as a POSIX shell would (quotes, backslashes, $VAR), without
// running a shell and refusing command substitution. Throws UsageError naming the line.
std::vector<std::string> split_command(const std::string& command);

}  // namespace perfgate
