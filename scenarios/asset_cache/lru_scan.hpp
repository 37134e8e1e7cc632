// BEFORE — the write-up's cache: "a plain HashMap+VecDeque LRU". The map holds the values;
// the deque holds the keys from least to most recently used. touch() on a hit is an O(n)
// scan of the deque for the key (plus an O(n) erase from its middle): the write-up's
// "The touch() on hit is also an O(n) scan of the recency queue".
#pragma once

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "cache.hpp"

namespace asset_cache {

class LruScanCache final : public Cache {
 public:
  explicit LruScanCache(std::size_t capacity) : capacity_(capacity) {
    if (capacity == 0) throw std::invalid_argument("lru-scan cache capacity must be >= 1");
    map_.reserve(capacity);
  }

  Blob get(std::string_view key) override {
    auto it = map_.find(key);
    if (it == map_.end()) return nullptr;
    touch(key);
    return it->second;
  }

  void put(std::string_view key, Blob value) override {
    if (auto it = map_.find(key); it != map_.end()) {
      it->second = std::move(value);
      touch(key);
      return;
    }
    if (map_.size() >= capacity_) {
      map_.erase(order_.front());
      order_.pop_front();
    }
    map_.emplace(std::string(key), std::move(value));
    order_.emplace_back(key);
  }

  std::size_t size() const override { return map_.size(); }
  std::size_t capacity() const override { return capacity_; }
  const char* name() const override { return "lru-scan"; }

 private:
  // Move `key` to the back (most recent): find it by scanning from the front.
  void touch(std::string_view key) {
    auto pos = std::find(order_.begin(), order_.end(), key);
    if (pos == order_.end()) return;
    std::string k = std::move(*pos);
    order_.erase(pos);
    order_.push_back(std::move(k));
  }

  std::size_t capacity_;
  std::unordered_map<std::string, Blob, StringHash, std::equal_to<>> map_;
  std::deque<std::string> order_;
};

}  // namespace asset_cache
