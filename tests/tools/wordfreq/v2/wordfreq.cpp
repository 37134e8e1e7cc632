// v2: a hash table sized for big files up front, then the k most frequent.
#include "wordfreq.hpp"

#include <unordered_map>

#include "tokens.hpp"

std::vector<std::pair<std::string, int>> top_words(const std::string& text, std::size_t k) {
  std::unordered_map<std::string, int> counts;
  counts.reserve(350000);
  for_each_word(text, [&](std::string w) { ++counts[std::move(w)]; });
  return most_frequent(counts, k);
}
