#include "export/text_table.hpp"

#include <algorithm>
#include <numeric>

namespace perfgate::exports {
namespace {

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// The byte offset at which character `n` of `text` starts (its size when there are fewer).
std::size_t offset_of(const std::string& text, std::size_t n) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (!continuation(static_cast<unsigned char>(text[i])) && chars++ == n) return i;
  return text.size();
}

std::string last_chars(const std::string& text, std::size_t n) {
  const std::size_t total = display_width(text);
  return n >= total ? text : text.substr(offset_of(text, total - n));
}

// Narrows the abbreviable columns, widest first, until the line fits or none can give more.
void fit(std::vector<std::size_t>& width, const TableLayout& layout) {
  if (!layout.max_width) return;
  auto total = [&] { return std::accumulate(width.begin(), width.end(), std::size_t{0}) + 2 * (width.size() - 1); };
  while (total() > layout.max_width) {
    std::size_t best = width.size();
    for (std::size_t i = 0; i < width.size() && i < layout.min_width.size(); ++i)
      if (layout.min_width[i] && width[i] > layout.min_width[i] && (best == width.size() || width[i] > width[best]))
        best = i;
    if (best == width.size()) return;
    --width[best];
  }
}

}  // namespace

std::size_t display_width(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += !continuation(c);
  return n;
}

std::string abbreviate(const std::string& text, std::size_t width) {
  const std::size_t n = display_width(text);
  if (n <= width || width < 3) return text;
  const std::size_t head = (width - 1) / 2 + (width - 1) % 2, tail = width - 1 - head;
  return text.substr(0, offset_of(text, head)) + "…" + last_chars(text, tail);
}

std::string wrap_text(const std::string& text, std::size_t width, const std::string& indent) {
  std::string out, line;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width) {
      out += line + "\n";
      line = indent + word;
    } else {
      line += (line.empty() ? "" : " ") + word;
    }
    start = end + 1;
  }
  return out + line + "\n";
}

void print_text_table(std::ostream& out, const TextRows& rows, bool rule, const TableLayout& layout) {
  if (rows.empty()) return;
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size() && i < width.size(); ++i) width[i] = std::max(width[i], display_width(r[i]));
  fit(width, layout);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    std::vector<std::string> cells;
    for (std::size_t i = 0; i < rows[k].size(); ++i) {
      std::string cell = i < width.size() ? abbreviate(rows[k][i], width[i]) : rows[k][i];
      if (i < width.size()) cell += std::string(width[i] - std::min(width[i], display_width(cell)), ' ');
      cells.push_back(std::move(cell));
    }
    // Trailing blanks trimmed before painting, so a painted line ends where its text does.
    std::size_t last = cells.size();
    while (last && cells[last - 1].find_first_not_of(' ') == std::string::npos) --last;
    if (last) {
      auto& c = cells[last - 1];
      c.erase(c.find_last_not_of(' ') + 1);
    }
    std::string line;
    for (std::size_t i = 0; i < last; ++i)
      line += (i ? "  " : "") + (layout.paint ? layout.paint(k, i, cells[i]) : cells[i]);
    out << line << "\n";
    if (k == 0 && rule)
      out << std::string(std::accumulate(width.begin(), width.end(), std::size_t{0}) + 2 * (width.size() - 1), '-')
          << "\n";
  }
}

}  // namespace perfgate::exports
