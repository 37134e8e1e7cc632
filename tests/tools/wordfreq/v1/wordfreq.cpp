// v1: count with std::map, then the k most frequent.
#include "wordfreq.hpp"
#include "tokens.hpp"
#include <algorithm>
#include <map>

std::vector<std::pair<std::string, int>> top_words(const std::string& text, std::size_t k) {
  std::map<std::string, int> counts;
  for_each_word(text, [&](std::string w) { ++counts[std::move(w)]; });
  std::vector<std::pair<std::string, int>> v(counts.begin(), counts.end());
  k = std::min(k, v.size());
  std::partial_sort(v.begin(), v.begin() + k, v.end(), [](auto& a, auto& b) { return a.second > b.second || (a.second == b.second && a.first < b.first); });
  v.resize(k);
  return v;
}
