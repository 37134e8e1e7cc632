// Where two outputs first differ, said so a person can see it: the equivalence gate's message
// when BEFORE and AFTER printed different things, and a phased client's agreement phase.
// Outputs are bytes: a text output is quoted line by line, printable (a Latin-1 byte reads
// \xe9); an output that is binary as git judges one (a NUL in its first 8000 bytes), or whose
// differing stretch is mostly not text, is shown as hex around the byte where they part.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace perfgate::gate {

// "first differing line N (byte B): before '…', after '…'" (each side its line, or where the line
// is long its first 40 bytes, "...", and up to 200 bytes from 60 before byte B; "(end of output)"
// where it has none), or for binary outputs "first
// differing byte at offset B: before 0x00, after 0x04; bytes S-E: before 1f8b0808 …, after …";
// nullopt when the files are equal or one cannot be read.
std::optional<std::string> first_difference(const std::filesystem::path& a, const std::filesystem::path& b,
                                            const std::string& a_name, const std::string& b_name);

}  // namespace perfgate::gate
