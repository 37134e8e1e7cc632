// The closed set, the deterministic entities, and the canonical rows the gate compares.
#include <cstdio>
#include <iterator>
#include <limits>
#include <random>

#include "dto.hpp"
#include "perfgate/canonical_row.hpp"

namespace dto_mapping {
namespace {

struct MimeRow {
  std::string_view mime;
  Kind kind;
};

// About 60 distinct strings in all, as in the write-up.
const MimeRow kMimes[] = {
    {"application/pdf", {"fas fa-file-pdf", "pdf-icon", "Document"}},
    {"application/msword", {"fas fa-file-word", "doc-icon", "Document"}},
    {"application/vnd.openxmlformats-officedocument.wordprocessingml.document",
     {"fas fa-file-word", "doc-icon", "Document"}},
    {"application/vnd.ms-excel", {"fas fa-file-excel", "spreadsheet-icon", "Spreadsheet"}},
    {"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
     {"fas fa-file-excel", "spreadsheet-icon", "Spreadsheet"}},
    {"application/vnd.openxmlformats-officedocument.presentationml.presentation",
     {"fas fa-file-powerpoint", "presentation-icon", "Presentation"}},
    {"application/vnd.oasis.opendocument.text", {"fas fa-file-alt", "doc-icon", "Document"}},
    {"application/zip", {"fas fa-file-archive", "archive-icon", "Archive"}},
    {"application/x-tar", {"fas fa-file-archive", "archive-icon", "Archive"}},
    {"application/gzip", {"fas fa-file-archive", "archive-icon", "Archive"}},
    {"application/json", {"fas fa-file-code", "code-icon", "Code"}},
    {"application/javascript", {"fas fa-file-code", "code-icon", "Code"}},
    {"application/xml", {"fas fa-file-code", "code-icon", "Code"}},
    {"text/plain", {"fas fa-file-alt", "text-icon", "Text"}},
    {"text/markdown", {"fas fa-file-alt", "text-icon", "Text"}},
    {"text/csv", {"fas fa-file-csv", "spreadsheet-icon", "Spreadsheet"}},
    {"text/html", {"fas fa-file-code", "code-icon", "Code"}},
    {"image/jpeg", {"fas fa-file-image", "image-icon", "Image"}},
    {"image/png", {"fas fa-file-image", "image-icon", "Image"}},
    {"image/gif", {"fas fa-file-image", "image-icon", "Image"}},
    {"image/webp", {"fas fa-file-image", "image-icon", "Image"}},
    {"image/heic", {"fas fa-file-image", "image-icon", "Image"}},
    {"image/svg+xml", {"fas fa-file-image", "image-icon", "Image"}},
    {"video/mp4", {"fas fa-file-video", "video-icon", "Video"}},
    {"video/quicktime", {"fas fa-file-video", "video-icon", "Video"}},
    {"video/webm", {"fas fa-file-video", "video-icon", "Video"}},
    {"audio/mpeg", {"fas fa-file-audio", "audio-icon", "Audio"}},
    {"audio/ogg", {"fas fa-file-audio", "audio-icon", "Audio"}},
    {"audio/flac", {"fas fa-file-audio", "audio-icon", "Audio"}},
    {"application/octet-stream", {"fas fa-file", "file-icon", "Other"}},
};
constexpr Kind kUnknown{"fas fa-file", "file-icon", "Other"};

// One row in this many carries a mime type outside the closed set.
constexpr std::size_t kUnknownEvery = 23;

std::string uuid_like(std::mt19937_64& rng) {
  char buf[40];
  const auto a = rng(), b = rng();
  std::snprintf(buf, sizeof buf, "%08llx-%04llx-4%03llx-a%03llx-%012llx", static_cast<unsigned long long>(a >> 32),
                static_cast<unsigned long long>((a >> 16) & 0xffff), static_cast<unsigned long long>(a & 0xfff),
                static_cast<unsigned long long>(b >> 52), static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

}  // namespace

Kind classify(std::string_view mime) {
  for (const auto& r : kMimes)
    if (r.mime == mime) return r.kind;
  return kUnknown;
}

std::string_view folder_icon(bool shared) { return shared ? "fas fa-folder-open" : "fas fa-folder"; }
std::string_view folder_special(bool shared) { return shared ? "shared-folder-icon" : "folder-icon"; }

const std::vector<std::string_view>& closed_set() {
  static const std::vector<std::string_view> all = [] {
    std::vector<std::string_view> v;
    auto add = [&v](std::string_view s) {
      for (auto x : v)
        if (x == s) return;
      v.push_back(s);
    };
    for (const auto& r : kMimes) {
      add(r.mime);
      add(r.kind.icon_class);
      add(r.kind.special_class);
      add(r.kind.category);
    }
    for (bool shared : {false, true}) {
      add(folder_icon(shared));
      add(folder_special(shared));
    }
    return v;
  }();
  return all;
}

std::vector<File> make_files(std::size_t n) {
  std::mt19937_64 rng(0x5eed0009);
  const std::string owner = uuid_like(rng);
  std::vector<std::string> folders;
  for (int i = 0; i < 40; ++i) folders.push_back(uuid_like(rng));
  std::vector<File> out;
  out.reserve(n);
  constexpr std::size_t kKnown = sizeof kMimes / sizeof kMimes[0];
  for (std::size_t i = 0; i < n; ++i) {
    File f;
    f.id = uuid_like(rng);
    f.name = "Quarterly report " + std::to_string(2000 + i % 25) + " part " + std::to_string(i) + ".dat";
    f.folder_id = folders[rng() % folders.size()];
    f.owner_id = owner;
    f.mime_type = i % kUnknownEvery == 7 ? "application/x-vendor-format-" + std::to_string(i % 5)
                                         : std::string(kMimes[rng() % kKnown].mime);
    // Sizes from bytes to gigabytes, so every unit of the human size is formatted.
    f.size = static_cast<std::int64_t>(rng() % (std::int64_t{1} << (4 + rng() % 30)));
    f.created_at = 1600000000000 + static_cast<std::int64_t>(rng() % 100000000000ULL);
    f.modified_at = f.created_at + static_cast<std::int64_t>(rng() % 1000000000);
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<Folder> make_folders(std::size_t n) {
  std::mt19937_64 rng(0x5eed0109);
  const std::string owner = uuid_like(rng);
  const std::string root = uuid_like(rng);
  std::vector<Folder> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    Folder f;
    f.id = uuid_like(rng);
    f.name = "Project folder " + std::to_string(i);
    f.parent_id = i == 0 ? root : out[rng() % out.size()].id;
    f.path = "/My Files/Projects/" + std::to_string(i % 97) + "/" + f.name;
    f.owner_id = owner;
    f.created_at = 1600000000000 + static_cast<std::int64_t>(rng() % 100000000000ULL);
    f.modified_at = f.created_at + static_cast<std::int64_t>(rng() % 1000000000);
    f.is_shared = rng() % 5 == 0;
    out.push_back(std::move(f));
  }
  return out;
}

void edit_every_seventh(std::vector<File>& files, std::vector<Folder>& folders) {
  constexpr std::int64_t kDay = 86400000;
  for (std::size_t i = 3; i < files.size(); i += 7) {
    File& f = files[i];
    f.name = "Renamed " + f.name;
    f.size = f.size * 3 + 1025;
    f.modified_at += kDay;
  }
  for (std::size_t i = 3; i < folders.size(); i += 7) {
    Folder& f = folders[i];
    f.name = "Renamed " + f.name;
    f.path = f.path.substr(0, f.path.rfind('/') + 1) + f.name;
    f.modified_at += kDay;
  }
}

std::vector<File> make_odd_files() {
  const char* const mimes[] = {"IMAGE/PNG",  "text/plain; charset=utf-8", "", "Application/PDF",
                               "image/png ", "video/MP4; codecs=avc1"};
  const std::int64_t sizes[] = {-1,
                                -4096,
                                std::int64_t{1} << 50,
                                (std::int64_t{1} << 50) * 1023,
                                std::int64_t{1} << 62,
                                std::numeric_limits<std::int64_t>::max()};
  std::vector<File> out;
  for (std::size_t i = 0; i < std::size(mimes); ++i) {
    File f;
    f.id = "00000000-0000-4000-a000-0000000dd0" + std::to_string(10 + i);
    f.name = "odd " + std::to_string(i) + ".bin";
    f.folder_id = "00000000-0000-4000-a000-000000f01de2";
    f.owner_id = "00000000-0000-4000-a000-0000000000e1";
    f.mime_type = mimes[i];
    f.size = sizes[i];
    f.created_at = 1600000000000;
    f.modified_at = 1600000000000 + static_cast<std::int64_t>(i);
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<Folder> make_odd_folders() {
  Folder f;
  f.id = "00000000-0000-4000-a000-0000000dd0f1";
  f.owner_id = "00000000-0000-4000-a000-0000000000e1";
  f.path = "/";  // no name, no parent
  f.created_at = 1600000000000;
  f.modified_at = 1600000000000;
  std::vector<Folder> out;
  out.push_back(std::move(f));
  return out;
}

std::string canonical(const FileDto& d) {
  return perfgate::CanonicalRow(14)
      .text(d.id)
      .text(d.name)
      .text(d.folder_id)
      .text(d.owner_id)
      .text(d.mime_type ? *d.mime_type : "<null>")
      .text(d.icon_class ? *d.icon_class : "<null>")
      .text(d.special_class ? *d.special_class : "<null>")
      .text(d.category ? *d.category : "<null>")
      .text(d.etag)
      .text(d.size_human)
      .integer(d.size)
      .integer(d.created_at)
      .integer(d.modified_at)
      .text("file")
      .str();
}

std::string canonical(const FolderDto& d) {
  return perfgate::CanonicalRow(11)
      .text(d.id)
      .text(d.name)
      .text(d.parent_id)
      .text(d.path)
      .text(d.owner_id)
      .text(d.icon_class ? *d.icon_class : "<null>")
      .text(d.special_class ? *d.special_class : "<null>")
      .text(d.etag)
      .integer(d.created_at)
      .integer(d.modified_at)
      .boolean(d.is_shared)
      .str();
}

}  // namespace dto_mapping
