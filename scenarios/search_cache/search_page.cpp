#include "search_page.hpp"

#include <malloc.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <perfgate/canonical_row.hpp>
#include <perfgate/sample.hpp>

namespace search_cache {
namespace {

constexpr std::array<const char*, 16> kWords = {"invoice",  "holiday", "report", "budget",  "draft",  "scan",
                                                "contract", "photo",   "notes",  "meeting", "backup", "design",
                                                "summary",  "receipt", "plan",   "archive"};
constexpr std::array<const char*, 8> kMimes = {
    "application/pdf", "image/jpeg",    "text/plain", "image/png",
    "application/zip", "text/markdown", "video/mp4",  "application/vnd.oasis.opendocument.text"};
constexpr std::array<const char*, 8> kOwners = {"Ada Lovelace",   "Grace Hopper",     "Alan Turing",
                                                "Barbara Liskov", "Edsger Dijkstra",  "Frances Allen",
                                                "Donald Knuth",   "Margaret Hamilton"};

// splitmix64: a small PRNG whose sequence is the same everywhere.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  const char* word() { return kWords[next() % kWords.size()]; }
};

}  // namespace

std::size_t heap_of(const std::string& s) {
  return s.capacity() > 15 ? malloc_usable_size(const_cast<char*>(s.data())) : 0;
}

std::size_t heap_chunk(std::size_t request) {
  return std::max<std::size_t>((request + 8 + 15) & ~std::size_t{15}, 32) - 8;
}

std::string SearchKey::text() const {
  return user + '\t' + query + '\t' + std::to_string(offset) + '\t' + std::to_string(limit);
}

SearchKey key_of(std::size_t i, std::uint32_t limit) {
  SearchKey k;
  k.user = "user" + std::to_string(i % 16);
  k.query = std::string(kWords[(i / 16) % 16]) + " " + kWords[(i / 256) % 16];
  k.offset = static_cast<std::uint32_t>(i / 4096) * limit;
  k.limit = limit;
  return k;
}

PagePtr build_page(const SearchKey& key, Build build, const Data& data) {
  const std::string text = key.text();
  const std::string renamed =
      data.generation > 0 && key.user == data.renamed_user ? "renamed" + std::to_string(data.generation) + "-" : "";
  Rng rng{XXH64(text.data(), text.size(), 0)};
  auto page = std::make_shared<Page>();
  page->reserve(key.limit);
  for (std::uint32_t r = 0; r < key.limit; ++r) {
    ResultRow row;
    row.file_id = static_cast<std::int64_t>(rng.next() % 100000000);
    std::string name = std::string(rng.word()) + "-" + std::to_string(key.offset + r) + "-" + rng.word() + ".dat";
    row.name = renamed.empty() ? std::move(name) : renamed + name;
    row.path = "/files/" + key.user + "/" + rng.word() + "/" + rng.word() + "/" + rng.word() + "/" + row.name;
    row.mime = kMimes[rng.next() % kMimes.size()];
    row.size = static_cast<std::int64_t>(rng.next() % (1ULL << 32));
    row.mtime = 1600000000 + static_cast<std::int64_t>(rng.next() % 100000000);
    const auto owner = kOwners[rng.next() % kOwners.size()];
    std::string tags = std::string(rng.word()) + "," + rng.word() + "," + rng.word() + "," + rng.word();
    std::string snippet;
    for (int w = 0; w < 24; ++w) snippet += std::string(w ? " " : "") + rng.word();
    if (build == Build::Honest) {
      row.owner_display = std::string(owner) + " <" + key.user + "@example.org>";
      row.tags = std::move(tags);
    }
    row.snippet = "..." + snippet + "...";
    row.score = static_cast<double>(rng.next() % 1000000) / 1000.0;
    page->push_back(std::move(row));
  }
  return page;
}

std::size_t page_bytes(const Page& page) {
  std::size_t n = page.empty() ? 0 : malloc_usable_size(const_cast<ResultRow*>(page.data()));
  for (const auto& r : page)
    n += heap_of(r.name) + heap_of(r.path) + heap_of(r.mime) + heap_of(r.owner_display) + heap_of(r.tags) +
         heap_of(r.snippet);
  return n;
}

std::string page_digest(const Page& page) {
  perfgate::Digest d;
  for (const auto& r : page)
    d.field(perfgate::CanonicalRow(10)
                .integer(r.file_id)
                .text(r.name)
                .text(r.path)
                .text(r.mime)
                .integer(r.size)
                .integer(r.mtime)
                .text(r.owner_display)
                .text(r.tags)
                .text(r.snippet)
                .real(r.score)
                .str());
  return d.hex();
}

}  // namespace search_cache
