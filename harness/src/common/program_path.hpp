// Where a command's program is: argv[0] as given when it has a slash, else looked up on PATH.
// Plans resolve programs before anything runs, so a missing one is exit 2 with nothing written.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace perfgate {

// Throws UsageError naming the program when it is missing or not executable.
std::string resolve_program(const std::string& name);

// Programs compared side by side run under paths of one length: the shorter gains "./" segments
// (and one doubled slash for an odd difference), naming the same file. A program's path is in
// its argv[0] and on its stack, and a program that copies it (Google Benchmark's flags do) moves
// every later heap block by its length: a byte copy of a benchmark binary at a path 24 bytes
// longer ran its 64 KiB memcpy 2.6% slower in every round (docs/gbench.md).
// `path` lengthened to `length`; unchanged when it is as long already or has no slash (a name
// looked up on PATH).
std::string padded_path(const std::string& path, std::size_t length);

// The length the programs are padded to: the longest of those with a slash.
std::size_t longest_path(const std::vector<std::string>& programs);

}  // namespace perfgate
