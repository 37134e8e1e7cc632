// The search-results cache, keyed by SearchKey::text(), least-recently-used first out, with a
// time to live. The two variants differ only in what bounds it:
//   CountCappedCache (before.cpp): at most `max_entries` pages, whatever they weigh;
//   WeighedCache     (after.cpp):  at most `budget_bytes` of pages, by page_bytes().
// Both keep the same TTL and the same LRU order, so a query's answer never depends on the
// variant: a miss rebuilds the same page.
#pragma once

#include <chrono>
#include <cstddef>
#include <list>
#include <string>
#include <unordered_map>
#include <vector>

#include "search_page.hpp"

namespace search_cache {

using Clock = std::chrono::steady_clock;

class ResultCache {
 public:
  virtual ~ResultCache() = default;
  // The cached page, or null when absent or expired.
  virtual PagePtr get(const std::string& key) = 0;
  virtual void put(const std::string& key, PagePtr page) = 0;
  virtual std::size_t entries() const = 0;
  // Heap bytes the entries hold (pages by page_bytes(), plus keys): the program's own account.
  virtual std::size_t retained_bytes() const = 0;
  // Moves the cache's clock forward (the TTL's clock: the sample's untimed probe ages the pages
  // past ttl_s without waiting for it).
  virtual void advance_clock(std::chrono::seconds by) = 0;
};

// The shared LRU + TTL machinery; `weight` is what each entry counts against the bound.
class LruTtlStore {
 public:
  explicit LruTtlStore(std::chrono::seconds ttl) : ttl_(ttl) {}
  PagePtr get(const std::string& key);
  // get() without its TTL check or without its LRU splice (the lies' shortcuts).
  PagePtr find(const std::string& key, bool check_ttl, bool splice);
  // Moves the entry to the front of the LRU order, if present.
  void touch(const std::string& key);
  void advance_clock(std::chrono::seconds by) { skew_ += by; }
  void insert(const std::string& key, PagePtr page, std::size_t bytes);
  // Drops the least recently used entry; false when empty.
  bool evict_oldest();
  std::size_t size() const { return map_.size(); }
  std::size_t bytes() const { return bytes_; }

 private:
  struct Entry {
    std::string key;
    PagePtr page;
    std::size_t bytes;
    Clock::time_point expires;
  };
  void erase(std::list<Entry>::iterator it);
  Clock::time_point now() const { return Clock::now() + skew_; }
  std::chrono::seconds ttl_;
  std::chrono::seconds skew_{0};
  std::list<Entry> lru_;  // front: most recently used
  std::unordered_map<std::string, std::list<Entry>::iterator> map_;
  std::size_t bytes_ = 0;
};

class CountCappedCache : public ResultCache {
 public:
  CountCappedCache(std::size_t max_entries, std::chrono::seconds ttl);
  PagePtr get(const std::string& key) override;
  void put(const std::string& key, PagePtr page) override;
  std::size_t entries() const override { return store_.size(); }
  std::size_t retained_bytes() const override { return store_.bytes(); }
  void advance_clock(std::chrono::seconds by) override { store_.advance_clock(by); }

 private:
  std::size_t max_entries_;
  LruTtlStore store_;
};

// What the cache keeps of a page (the lie "cache-first-rows" keeps only its first half).
enum class Keep { WholePage, FirstHalf };

// Which field of SearchKey::text() ("user\tquery\toffset\tlimit") the cache leaves out of
// its key: none, or the one a lie "key-no-<field>" drops (so two pages share one entry).
enum class KeyField { None = -1, User = 0, Query = 1, Offset = 2, Limit = 3 };

// The shortcuts a lying AFTER takes (all off for the honest cache).
struct Shortcuts {
  Keep keep = Keep::WholePage;
  KeyField dropped = KeyField::None;
  bool no_ttl_check = false;     // "no-ttl-check": get() never reads the clock
  bool scratch_page = false;     // "scratch-page": pages handed out from one reused scratch Page
  std::uint32_t zero_limit = 0;  // "default-limit": a key of limit 0 looked up with this limit
  bool deferred_lru = false;     // "deferred-lru": a hit's LRU splice buffered until the next put
  bool light_weigher = false;    // "light-weigher": an entry weighed by its page alone (no key, no nodes)
};

class WeighedCache : public ResultCache {
 public:
  WeighedCache(std::size_t budget_bytes, std::chrono::seconds ttl, Shortcuts lies = {});
  PagePtr get(const std::string& key) override;
  void put(const std::string& key, PagePtr page) override;
  std::size_t entries() const override { return store_.size(); }
  std::size_t retained_bytes() const override { return store_.bytes(); }
  void advance_clock(std::chrono::seconds by) override { store_.advance_clock(by); }

 private:
  std::string keyed(const std::string& key) const;
  PagePtr lying_get(const std::string& key);

  std::size_t budget_;
  Shortcuts lies_;
  bool honest_get_;
  LruTtlStore store_;
  Page scratch_;
  std::vector<std::string> pending_;  // deferred-lru: the hits not yet spliced
};

// An entry's weight: its page, its key and the blocks that hold them in the cache.
std::size_t entry_bytes(const std::string& key, const Page& page);

}  // namespace search_cache
