// The word-frequency function both versions implement: the k most frequent words of a text.
#pragma once
#include <string>
#include <utility>
#include <vector>
std::vector<std::pair<std::string, int>> top_words(const std::string& text, std::size_t k);
