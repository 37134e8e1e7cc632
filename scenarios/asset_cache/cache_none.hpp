// No cache: every request goes to SQLite.
#pragma once

#include "cache.hpp"

namespace asset_cache {

class NoCache final : public Cache {
 public:
  Blob get(std::string_view) override { return nullptr; }
  void put(std::string_view, Blob) override {}
  std::size_t size() const override { return 0; }
  std::size_t capacity() const override { return 0; }
  const char* name() const override { return "none"; }
};

}  // namespace asset_cache
