#include "store/text_table.hpp"

#include <algorithm>

namespace perfgate::store {

void print_text_table(std::ostream& out, const TextRows& rows, bool rule) {
  if (rows.empty()) return;
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size() && i < width.size(); ++i) width[i] = std::max(width[i], r[i].size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    std::string line;
    for (std::size_t i = 0; i < rows[k].size(); ++i) {
      std::string cell = rows[k][i];
      if (i < width.size()) cell.resize(width[i], ' ');
      line += (i ? "  " : "") + cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
    if (k == 0 && rule) {
      std::size_t total = 0;
      for (auto w : width) total += w + 2;
      out << std::string(total - 2, '-') << "\n";
    }
  }
}

}  // namespace perfgate::store
