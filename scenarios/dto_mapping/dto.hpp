// dto_mapping (seed 000 [9]): file and folder entities mapped to the DTOs a listing API
// returns. The entities, the DTOs, the closed set of strings they draw from, and the two
// mappings (before.cpp, after.cpp) that must produce the same bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dto_mapping {

// The DTO's shared immutable string (the write-up's Arc<str>): copying it is a refcount bump,
// making one is an allocation.
using Shared = std::shared_ptr<const std::string>;

struct File {
  std::string id, name, folder_id, owner_id, mime_type;
  std::int64_t size = 0, created_at = 0, modified_at = 0;
};

struct Folder {
  std::string id, name, parent_id, path, owner_id;
  std::int64_t created_at = 0, modified_at = 0;
  bool is_shared = false;
};

struct FileDto {
  std::string id, name, folder_id, owner_id;
  Shared mime_type, icon_class, special_class, category;
  std::string etag, size_human;
  std::int64_t size = 0, created_at = 0, modified_at = 0;
};

struct FolderDto {
  std::string id, name, parent_id, path, owner_id;
  Shared icon_class, special_class;
  std::string etag;
  std::int64_t created_at = 0, modified_at = 0;
  bool is_shared = false;
};

// What a mime type says about a file: the closed set both variants draw from.
struct Kind {
  std::string_view icon_class, special_class, category;
};
Kind classify(std::string_view mime);
// The folder's two closed-set strings.
std::string_view folder_icon(bool shared);
std::string_view folder_special(bool shared);
// Every string of the closed set (the mime types, icon classes, special classes, categories).
const std::vector<std::string_view>& closed_set();

// The deterministic rows a sample maps (fixed PRNG seed; one mime type in `unknown_every` is
// outside the closed set, so the interning's fallback path is exercised).
std::vector<File> make_files(std::size_t n);
std::vector<Folder> make_folders(std::size_t n);

// main.cpp's untimed probes. Every 7th file and folder written under the same id (a new name,
// size and modified_at; a folder's path follows its name): a DTO kept by id shows the old one.
void edit_every_seventh(std::vector<File>& files, std::vector<Folder>& folders);
// Entities outside what the seeds make: mime types that differ from a closed-set value in case
// or parameters, an empty one, sizes negative or past TB; a folder with an empty name and parent.
std::vector<File> make_odd_files();
std::vector<Folder> make_odd_folders();

// The work a variant may skip when told to lie (the manifest's `lies`).
struct Lies {
  bool unknown_mime_empty = false;  // interning answers "" for a value outside the closed set
  bool skip_folder_etag = false;    // folders get no etag at all
  bool intern_by_prefix = false;    // the intern table keyed by a string's first 6 bytes only
  bool dto_by_id = false;           // a DTO kept per entity id across mappings, never invalidated
  bool folded_mime = false;         // a mime type lower-cased and stripped of parameters first
};

namespace before {
FileDto map_file(const File& f);
FolderDto map_folder(Folder&& f);
}  // namespace before

namespace after {
FileDto map_file(const File& f, const Lies& lies = {});
FolderDto map_folder(Folder&& f, const Lies& lies = {});
}  // namespace after

// Every field of a DTO as one canonical row (perfgate/canonical_row.hpp): the equivalence gate.
std::string canonical(const FileDto& d);
std::string canonical(const FolderDto& d);

}  // namespace dto_mapping
