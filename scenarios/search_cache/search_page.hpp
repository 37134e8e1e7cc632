// The search both variants answer: a page of enriched result rows for (user, query, offset,
// limit), built deterministically from the key (fixed PRNG seeded by the key's XXH64), so the
// same key gives the same bytes on every machine. Building a page is the miss path the cache
// saves; the rows are what a listing API would keep (names, paths, owner display names, tags,
// snippets), about 600 bytes each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace search_cache {

struct SearchKey {
  std::string user, query;
  std::uint32_t offset = 0, limit = 0;
  std::string text() const;  // "user\tquery\toffset\tlimit": the cache key
};

struct ResultRow {
  std::int64_t file_id = 0;
  std::string name, path, mime;
  std::int64_t size = 0, mtime = 0;
  std::string owner_display, tags, snippet;  // the enrichment (joined from users, tags, content)
  double score = 0;
};

using Page = std::vector<ResultRow>;
using PagePtr = std::shared_ptr<const Page>;

// What the build skips (the lies' shortcuts; Honest for the real search).
enum class Build { Honest, NoEnrichment };

// The data the search reads: generation 0 as seeded; a later generation has the files of
// `renamed_user` renamed (each row's name and path carry the generation), as a rename between two
// searches would, so a page built before it is stale.
struct Data {
  std::string renamed_user;
  std::uint32_t generation = 0;
};

PagePtr build_page(const SearchKey& key, Build build = Build::Honest, const Data& data = {});

// The i-th distinct key of a run (0 <= i < 1024 * k): users, queries and offsets vary so
// every i is a different cache entry.
SearchKey key_of(std::size_t i, std::uint32_t limit);

// What the heap holds, as the allocator counts it (malloc_usable_size: glibc rounds a request
// up to a 16-byte chunk less its 8-byte header), not the bytes asked for: the figure the
// allocation counter's live heap adds up, so a budget in these bytes bounds the process heap.
// A string's own buffer (0 within the small-string buffer); a block asked for with `request`
// bytes (for nodes whose address the containers keep to themselves).
std::size_t heap_of(const std::string& s);
std::size_t heap_chunk(std::size_t request);
// Heap bytes a page holds (the AFTER's weigher and the program's own accounting): the row
// array plus every string that lives outside its small-string buffer.
std::size_t page_bytes(const Page& page);

// One canonical text per row (perfgate/canonical_row.hpp) folded into an XXH3-128 hex digest:
// what the equivalence gate compares per query.
std::string page_digest(const Page& page);

}  // namespace search_cache
