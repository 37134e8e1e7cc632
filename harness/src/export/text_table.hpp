// Aligned plain-text tables for the terminal (the verdict table, `perfgate compare`): columns
// padded to their widest cell, two spaces apart, trailing blanks trimmed. Widths count UTF-8
// characters, not bytes ("µs", "→" and "…" are one column each). A layout may cap the line
// width: columns that allow it are then abbreviated in the middle ("server_c…request"), widest
// first, down to their minimum; and it may paint cells (colour), after padding, so escape codes
// never shift a column.
#pragma once

#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace perfgate::exports {

using TextRows = std::vector<std::vector<std::string>>;

struct TableLayout {
  std::size_t max_width = 0;           // 0: no cap
  std::vector<std::size_t> min_width;  // per column: how narrow abbreviating may make it (0: never)
  // (row, column, padded cell) → what is printed; row 0 is the header.
  std::function<std::string(std::size_t, std::size_t, const std::string&)> paint;
};

// rows[0] is the header; `rule` draws a line of dashes under it.
void print_text_table(std::ostream& out, const TextRows& rows, bool rule = false, const TableLayout& layout = {});

// Characters (UTF-8 code points) of `text`: the columns it takes in a terminal here.
std::size_t display_width(const std::string& text);

// `text` broken at spaces into lines of at most `width` characters (a longer word keeps its own
// line), every line after the first starting with `indent`; each line ends with a newline.
std::string wrap_text(const std::string& text, std::size_t width, const std::string& indent = "");

// `text` cut to `width` characters with "…" in the middle; unchanged when it fits.
std::string abbreviate(const std::string& text, std::size_t width);

}  // namespace perfgate::exports
