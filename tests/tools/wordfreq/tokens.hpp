#pragma once
#include <string>
// Calls f(word) for every space- or newline-separated word of text.
template <class F>
void for_each_word(const std::string& text, F f) {
  std::size_t i = 0, n = text.size();
  while (i < n) {
    while (i < n && (text[i] == ' ' || text[i] == '\n')) ++i;
    std::size_t j = i;
    while (j < n && text[j] != ' ' && text[j] != '\n') ++j;
    if (j > i) f(text.substr(i, j - i));
    i = j;
  }
}
// The k most frequent (word, count) pairs of `counts`, ties by word: both versions' last step,
// so v1 and v2 differ only in how they count.
#include <algorithm>
#include <utility>
#include <vector>
template <class Counts>
std::vector<std::pair<std::string, int>> most_frequent(const Counts& counts, std::size_t k) {
  std::vector<std::pair<std::string, int>> v(counts.begin(), counts.end());
  k = std::min(k, v.size());
  std::partial_sort(v.begin(), v.begin() + k, v.end(), [](auto& a, auto& b) {
    return a.second > b.second || (a.second == b.second && a.first < b.first);
  });
  v.resize(k);
  return v;
}
