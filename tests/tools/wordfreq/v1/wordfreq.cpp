// v1: count with std::map, then the k most frequent.
#include "wordfreq.hpp"

#include <map>

#include "tokens.hpp"

std::vector<std::pair<std::string, int>> top_words(const std::string& text, std::size_t k) {
  std::map<std::string, int> counts;
  for_each_word(text, [&](std::string w) { ++counts[std::move(w)]; });
  return most_frequent(counts, k);
}
