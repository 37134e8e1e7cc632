// Aligned plain-text tables for the terminal (the verdict table, `perfgate compare`): columns
// padded to their widest cell, two spaces apart, trailing blanks trimmed.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace perfgate::store {

using TextRows = std::vector<std::vector<std::string>>;

// rows[0] is the header; `rule` draws a line of dashes under it.
void print_text_table(std::ostream& out, const TextRows& rows, bool rule = false);

}  // namespace perfgate::store
