// AFTER: closed-set strings interned once per process (a lookup and a refcount bump; a value
// outside the set is still allocated, with the same bytes), etag and human size formatted
// straight into their one allocation, and the folder's strings moved out of the entity.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <unordered_map>
#include <utility>

#include "dto.hpp"

namespace dto_mapping::after {
namespace {

const Shared& empty_shared() {
  static const Shared empty = std::make_shared<const std::string>();
  return empty;
}

Shared intern(std::string_view s, const Lies& lies) {
  static const std::unordered_map<std::string_view, Shared> table = [] {
    std::unordered_map<std::string_view, Shared> t;
    for (auto v : closed_set()) {
      auto owned = std::make_shared<const std::string>(v);
      t.emplace(std::string_view(*owned), owned);
    }
    return t;
  }();
  if (lies.intern_by_prefix) {  // the lie: the table keyed by a string's first 6 bytes ("image/...")
    static const std::unordered_map<std::string_view, Shared> by_prefix = [] {
      std::unordered_map<std::string_view, Shared> t;
      for (const auto& [key, shared] : table) t.emplace(key.substr(0, 6), shared);
      return t;
    }();
    if (auto it = by_prefix.find(s.substr(0, 6)); it != by_prefix.end()) return it->second;
  }
  if (auto it = table.find(s); it != table.end()) return it->second;
  if (lies.unknown_mime_empty) return empty_shared();
  return std::make_shared<const std::string>(s);
}

std::string etag(std::int64_t a, std::int64_t b) {
  char buf[48];
  const int n = std::snprintf(buf, sizeof buf, "\"%llx-%llx\"", static_cast<unsigned long long>(a),
                              static_cast<unsigned long long>(b));
  return std::string(buf, static_cast<std::size_t>(n));
}

std::string human_size(std::int64_t size) {
  char buf[40];
  int n;
  if (size < 1024) {
    n = std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(size));
  } else {
    static const char* const kUnits[] = {"KB", "MB", "GB", "TB"};
    double v = static_cast<double>(size) / 1024.0;
    int unit = 0;
    while (v >= 1024.0 && unit < 3) {
      v /= 1024.0;
      ++unit;
    }
    n = std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[unit]);
  }
  return std::string(buf, static_cast<std::size_t>(n));
}

// The lie folded-mime: "IMAGE/PNG" or "image/png; x=y" classified as image/png (one buffer per
// thread); the DTO keeps the mime type as given.
const std::string& folded(const std::string& mime) {
  thread_local std::string out;
  out.assign(mime, 0, std::min(mime.find(';'), mime.size()));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

FileDto map_file(const File& f, const Lies& lies) {
  if (lies.dto_by_id) {  // the lie: the DTO kept per entity id, never invalidated
    static std::unordered_map<std::string, FileDto> kept;
    if (auto it = kept.find(f.id); it != kept.end()) return it->second;
    Lies honest = lies;
    honest.dto_by_id = false;
    return kept.emplace(f.id, map_file(f, honest)).first->second;
  }
  const Kind k = classify(lies.folded_mime ? folded(f.mime_type) : f.mime_type);
  FileDto d;
  d.id = f.id;
  d.name = f.name;
  d.folder_id = f.folder_id;
  d.owner_id = f.owner_id;
  d.mime_type = intern(f.mime_type, lies);
  d.icon_class = intern(k.icon_class, lies);
  d.special_class = intern(k.special_class, lies);
  d.category = intern(k.category, lies);
  d.etag = etag(f.modified_at, f.size);
  d.size_human = human_size(f.size);
  d.size = f.size;
  d.created_at = f.created_at;
  d.modified_at = f.modified_at;
  return d;
}

FolderDto map_folder(Folder&& f, const Lies& lies) {
  if (lies.dto_by_id) {  // the lie: the DTO kept per entity id, never invalidated
    static std::unordered_map<std::string, FolderDto> kept;
    if (auto it = kept.find(f.id); it != kept.end()) return it->second;
    Lies honest = lies;
    honest.dto_by_id = false;
    std::string id = f.id;
    return kept.emplace(std::move(id), map_folder(std::move(f), honest)).first->second;
  }
  FolderDto d;
  d.id = std::move(f.id);
  d.name = std::move(f.name);
  d.parent_id = std::move(f.parent_id);
  d.path = std::move(f.path);
  d.owner_id = std::move(f.owner_id);
  d.icon_class = intern(folder_icon(f.is_shared), lies);
  d.special_class = intern(folder_special(f.is_shared), lies);
  if (!lies.skip_folder_etag) d.etag = etag(f.modified_at, f.created_at);
  d.created_at = f.created_at;
  d.modified_at = f.modified_at;
  d.is_shared = f.is_shared;
  return d;
}

}  // namespace dto_mapping::after
