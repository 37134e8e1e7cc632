// A command line as one string a POSIX shell reads back into the same words: the `reproduce`
// fields of the results and the commands printed in messages.
#pragma once

#include <string>
#include <vector>

namespace perfgate {

// `s` unchanged when it holds only characters a shell leaves alone; otherwise single-quoted.
std::string shell_quote(const std::string& s);

// Every word shell-quoted, joined by spaces.
std::string join_command(const std::vector<std::string>& argv);

}  // namespace perfgate
