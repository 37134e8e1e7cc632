#pragma once
#include <string>
// Calls f(word) for every space- or newline-separated word of text.
template <class F> void for_each_word(const std::string& text, F f) {
  std::size_t i = 0, n = text.size();
  while (i < n) {
    while (i < n && (text[i] == ' ' || text[i] == '\n')) ++i;
    std::size_t j = i;
    while (j < n && text[j] != ' ' && text[j] != '\n') ++j;
    if (j > i) f(text.substr(i, j - i));
    i = j;
  }
}
