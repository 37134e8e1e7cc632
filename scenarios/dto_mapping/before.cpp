// BEFORE: every closed-set string copied into a fresh shared string per row, the etag and the
// human size formatted in two steps (a temporary, then the final string), the folder's etag
// built twice, and the folder's strings cloned although the entity is about to be dropped.
#include <cstdio>
#include <utility>

#include "dto.hpp"

namespace dto_mapping::before {
namespace {

Shared share(std::string_view s) { return std::make_shared<const std::string>(s); }

std::string hex(std::int64_t v) {
  char buf[24];
  const int n = std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
  return std::string(buf, static_cast<std::size_t>(n));
}

std::string etag(std::int64_t a, std::int64_t b) {
  const std::string inner = hex(a) + "-" + hex(b);
  return "\"" + inner + "\"";
}

std::string human_size(std::int64_t size) {
  if (size < 1024) return std::to_string(size) + " B";
  static const char* const kUnits[] = {"KB", "MB", "GB", "TB"};
  double v = static_cast<double>(size) / 1024.0;
  int unit = 0;
  while (v >= 1024.0 && unit < 3) {
    v /= 1024.0;
    ++unit;
  }
  char buf[32];
  const int n = std::snprintf(buf, sizeof buf, "%.1f", v);
  const std::string number(buf, static_cast<std::size_t>(n));
  return number + " " + kUnits[unit];
}

}  // namespace

FileDto map_file(const File& f) {
  const Kind k = classify(f.mime_type);
  FileDto d;
  d.id = f.id;
  d.name = f.name;
  d.folder_id = f.folder_id;
  d.owner_id = f.owner_id;
  d.mime_type = share(f.mime_type);
  d.icon_class = share(k.icon_class);
  d.special_class = share(k.special_class);
  d.category = share(k.category);
  d.etag = etag(f.modified_at, f.size);
  d.size_human = human_size(f.size);
  d.size = f.size;
  d.created_at = f.created_at;
  d.modified_at = f.modified_at;
  return d;
}

FolderDto map_folder(Folder&& f) {
  FolderDto d;
  d.id = f.id;
  d.name = f.name;
  d.parent_id = f.parent_id;
  d.path = f.path;
  d.owner_id = std::move(f.owner_id);
  d.icon_class = share(folder_icon(f.is_shared));
  d.special_class = share(folder_special(f.is_shared));
  if (!etag(f.modified_at, f.created_at).empty()) d.etag = etag(f.modified_at, f.created_at);
  d.created_at = f.created_at;
  d.modified_at = f.modified_at;
  d.is_shared = f.is_shared;
  return d;
}

}  // namespace dto_mapping::before
