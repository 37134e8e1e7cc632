#include "filecloud/filecloud.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>
#include <stdexcept>

namespace perfgate::seeders::filecloud {

using fixtures::CopyIn;
using fixtures::PgConnection;

namespace {

constexpr std::int64_t kEpoch2024 = 1704067200;  // 2024-01-01 00:00:00 UTC
constexpr std::uint64_t kSeed = 0x5eed'f11e'c10d'0001ULL;

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

// Deterministic pseudo-random value for (stream, index).
std::uint64_t rnd(std::string_view stream, std::uint64_t i) { return mix(fnv1a(stream) ^ mix(i ^ kSeed)); }

// A bijection on [0, n): insertion order unrelated to name or date order.
std::uint64_t permute(std::uint64_t k, std::uint64_t n) {
  static const std::uint64_t primes[] = {7919, 104729, 1299709, 15485863};
  for (std::uint64_t a : primes)
    if (n % a != 0) return (k * a + n / 3) % n;
  return k;
}

std::string fmt(const char* pattern, long long v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, pattern, v);
  return buf;
}

class Timer {
 public:
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// The statistics target makes ANALYZE read every row (300 x target >= rows): planner
// statistics become a function of the data, not of ANALYZE's random sample.
void finish(PgConnection& c, long long rows) {
  const int target = static_cast<int>(std::min<long long>(10000, std::max<long long>(100, rows / 300 + 1)));
  c.exec("SET default_statistics_target = " + std::to_string(target));
  c.exec("VACUUM (ANALYZE)");
}

struct FolderRow {
  std::string id, name;
  std::optional<std::string> parent;
  std::string path, drive;
  bool trashed;
  std::int64_t created, updated;
};

void put_folder(CopyIn& c, const FolderRow& f) {
  c.field(f.id).field(f.name);
  f.parent ? c.field(*f.parent) : c.null();
  c.field(f.path).field(f.drive).field(f.trashed ? "t" : "f").field(timestamp(f.created)).field(timestamp(f.updated));
  c.end_row();
}

const char* kFolderCols = "(id, name, parent_id, path, drive_id, is_trashed, created_at, updated_at)";
const char* kFileCols =
    "(id, name, folder_id, drive_id, size, mime_type, is_trashed, created_at, updated_at, media_sort_date, "
    "category_order)";

}  // namespace

std::string uuid_for(std::string_view kind, std::uint64_t index) {
  const std::uint64_t a = rnd(kind, index), b = mix(a ^ 0x7f4a7c159e3779b9ULL);
  unsigned char bytes[16];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(a >> (56 - 8 * i));
  for (int i = 0; i < 8; ++i) bytes[8 + i] = static_cast<unsigned char>(b >> (56 - 8 * i));
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40);
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);
  char out[37];
  std::snprintf(out, sizeof out, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", bytes[0],
                bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
                bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]);
  return out;
}

std::string timestamp(std::int64_t s) {
  const std::time_t t = static_cast<std::time_t>(kEpoch2024 + s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S+00", &tm);
  return buf;
}

std::string caller_user_id() { return uuid_for("user", 1); }
std::string listing_folder_id() { return uuid_for("listing.folder", 0); }
std::string walk_parent_folder_id() { return uuid_for("walk.folder", 0); }
std::string photos_now() { return timestamp(3600LL * 24 * 520); }  // 2025-06-04

// --- keyset_listing ----------------------------------------------------------------------------

SeedStats seed_listing(const std::string& dsn, const ListingParams& p) {
  if (p.folders < 0 || p.files < 0 || p.folders > 999999 || p.files > 99999999)
    throw std::invalid_argument("listing: folders must be in [0, 999999], files in [0, 99999999]");
  Timer timer;
  PgConnection c(dsn);
  long long rows = 0;
  const std::string drive = uuid_for("listing.drive", 0);
  const std::string root = uuid_for("listing.root", 0);
  const std::string folder = listing_folder_id();
  for (const std::string schema : {"premigration", "migrated"}) {
    create_tables(c, schema);
    {
      CopyIn copy(c, "COPY " + schema + ".drives (id, name, kind, policies, created_at) FROM STDIN");
      copy.field(drive)
          .field("My Drive")
          .field("personal")
          .field(R"({"include_in_photo_index": true})")
          .field(timestamp(0))
          .end_row();
      rows += copy.finish();
    }
    {
      CopyIn copy(c, "COPY " + schema + ".folders " + kFolderCols + " FROM STDIN");
      put_folder(copy, {root, "Home", std::nullopt, "/", drive, false, 0, 0});
      put_folder(copy, {folder, "Camera Uploads", root, "/Camera Uploads", drive, false, 60, 60});
      for (int k = 0; k < p.folders; ++k) {
        const int i = static_cast<int>(permute(k, p.folders)) + 1;
        const std::string name = fmt("Dir_%06lld", i);
        // Every sub-folder shares one timestamp: the modification-time order falls to the id.
        put_folder(copy,
                   {uuid_for("listing.dir", i), name, folder, "/Camera Uploads/" + name, drive, false, 3600, 3600});
      }
      rows += copy.finish();
    }
    {
      CopyIn copy(c, "COPY " + schema + ".files " + kFileCols + " FROM STDIN");
      const long long groups = p.files / 4 + 1;  // about four files per modification time: ties fall to the id
      for (int k = 0; k < p.files; ++k) {
        const long long i = static_cast<long long>(permute(k, p.files)) + 1;
        const std::int64_t created = 7200 + i;
        const std::int64_t updated = 7200 + ((i * 7919) % groups) * 60;
        const std::string ts = timestamp(created);
        copy.field(uuid_for("listing.file", i))
            .field(fmt("File_%08lld.JPG", i))
            .field(folder)
            .field(drive)
            .field(static_cast<long long>(1024 + rnd("listing.size", i) % 8'000'000))
            .field("image/jpeg")
            .field("f")
            .field(ts)
            .field(timestamp(updated))
            .field(ts)
            .field(1LL)
            .end_row();
      }
      rows += copy.finish();
    }
    create_indexes(c, schema);
    if (schema == "migrated") create_listing_indexes(c, schema);
  }
  record_fixture(c, "listing", {{"folders", p.folders}, {"files", p.files}});
  finish(c, p.files);
  return {rows, timer.seconds()};
}

// --- folder_keyset -----------------------------------------------------------------------------

SeedStats seed_folder_tree(const std::string& dsn, const FolderTreeParams& p) {
  if (p.subfolders < 0 || p.subfolders > 99999) throw std::invalid_argument("folder tree: subfolders in [0, 99999]");
  Timer timer;
  PgConnection c(dsn);
  long long rows = 0;
  const std::string drive = uuid_for("walk.drive", 0);
  const std::string root = uuid_for("walk.root", 0);
  const std::string parent = walk_parent_folder_id();
  create_tables(c, "public");
  {
    CopyIn copy(c, "COPY drives (id, name, kind, policies, created_at) FROM STDIN");
    copy.field(drive)
        .field("Team")
        .field("shared")
        .field(R"({"include_in_photo_index": false})")
        .field(timestamp(0))
        .end_row();
    rows += copy.finish();
  }
  {
    CopyIn copy(c, std::string("COPY folders ") + kFolderCols + " FROM STDIN");
    put_folder(copy, {root, "Team", std::nullopt, "/", drive, false, 0, 0});
    put_folder(copy, {parent, "Projects", root, "/Projects", drive, false, 60, 60});
    for (int i = 0; i < p.subfolders; ++i) {
      // Created in an order unrelated to their names, as folders are.
      const std::string name = fmt("project-%05lld", static_cast<long long>(permute(i, p.subfolders)));
      put_folder(copy, {uuid_for("walk.dir", i), name, parent, "/Projects/" + name, drive, false, 3600 + i, 3600 + i});
    }
    rows += copy.finish();
  }
  create_indexes(c, "public");
  record_fixture(c, "folder_tree", {{"subfolders", p.subfolders}});
  finish(c, p.subfolders);
  return {rows, timer.seconds()};
}

// --- photos_timeline ---------------------------------------------------------------------------

SeedStats seed_photos(const std::string& dsn, const PhotosParams& p) {
  if (p.images < 1 || p.drives < 1 || p.drives > 64)
    throw std::invalid_argument("photos: images >= 1, drives in [1, 64]");
  Timer timer;
  PgConnection c(dsn);
  long long rows = 0;
  create_tables(c, "public");
  const std::string user = caller_user_id();
  constexpr int kAlbums = 20;
  // Drives 0..drives-1 are the caller's photo library; then the ones it must not see.
  enum Extra { kUngranted = 0, kExpired = 1, kExcluded = 2, kExtraDrives = 3 };
  const int all_drives = p.drives + kExtraDrives;
  auto drive_id = [](int d) { return uuid_for("photos.drive", d); };
  auto folder_id = [](int d, int album) { return uuid_for("photos.folder", d * 1000 + album + 1); };

  {
    CopyIn copy(c, "COPY drives (id, name, kind, policies, created_at) FROM STDIN");
    for (int d = 0; d < all_drives; ++d) {
      const bool excluded = d == p.drives + kExcluded;
      copy.field(drive_id(d))
          .field(fmt("Shared drive %lld", d))
          .field("shared")
          .field(excluded ? R"({"include_in_photo_index": false})" : R"({"include_in_photo_index": true})")
          .field(timestamp(d))
          .end_row();
    }
    rows += copy.finish();
  }
  {
    CopyIn copy(c,
                "COPY role_grants (subject_type, subject_id, resource_type, resource_id, role, expires_at) FROM STDIN");
    for (int d = 0; d < p.drives; ++d) {
      copy.field("user").field(user).field("drive").field(drive_id(d)).field(d == 1 ? "editor" : "viewer");
      d == 1 ? copy.field(timestamp(3600LL * 24 * 3000)) : copy.null();  // one grant expires, far in the future
      copy.end_row();
    }
    copy.field("user")
        .field(uuid_for("user", 2))
        .field("drive")
        .field(drive_id(p.drives + kUngranted))
        .field("owner")
        .null()
        .end_row();
    copy.field("user")
        .field(user)
        .field("drive")
        .field(drive_id(p.drives + kExpired))
        .field("viewer")
        .field(timestamp(3600LL * 24 * 100))
        .end_row();  // expired before photos_now()
    copy.field("user")
        .field(user)
        .field("drive")
        .field(drive_id(p.drives + kExcluded))
        .field("viewer")
        .null()
        .end_row();
    // Other people's grants on the same drives.
    for (int g = 0; g < 40; ++g)
      copy.field(g % 2 ? "user" : "group")
          .field(uuid_for("user", 100 + g))
          .field("drive")
          .field(drive_id(g % all_drives))
          .field("viewer")
          .null()
          .end_row();
    rows += copy.finish();
  }
  {
    CopyIn copy(c, std::string("COPY folders ") + kFolderCols + " FROM STDIN");
    for (int d = 0; d < all_drives; ++d) {
      const std::string root = uuid_for("photos.root", d);
      put_folder(copy, {root, "Drive root", std::nullopt, "/", drive_id(d), false, 0, 0});
      for (int a = 0; a < kAlbums; ++a) {
        const std::string name = fmt("Album %02lld", a);
        put_folder(copy, {folder_id(d, a), name, root, "/" + name, drive_id(d), false, 60, 60});
      }
    }
    rows += copy.finish();
  }

  // Files and their metadata. Visible images: index i in [0, images), capture date in
  // [i*600, i*600+599] s after 2024-01-01, strictly increasing with i. The others (ungranted,
  // expired, excluded, trashed) have dates across the same range, so the newest pages are
  // where the filters matter.
  struct Image {
    std::string id, name, mime;
    int drive, album;
    std::int64_t date;
    bool trashed;
  };
  const int extra = std::max(50, p.images / 200);
  const int docs = std::max(20, p.images / 100);
  const long long total_images = static_cast<long long>(p.images) + 4LL * extra;
  auto image = [&](long long k) -> Image {
    static const char* mimes[] = {"image/jpeg", "image/jpeg", "image/jpeg", "image/heic", "image/png"};
    const std::uint64_t r = rnd("photos.image", static_cast<std::uint64_t>(k));
    Image im;
    im.mime = mimes[r % 5];
    im.album = static_cast<int>((r >> 8) % kAlbums);
    im.trashed = false;
    if (k < p.images) {
      im.drive = static_cast<int>((r >> 16) % p.drives);
      im.date = k * 600 + static_cast<std::int64_t>((r >> 24) % 600);
      im.name = fmt("IMG_%06lld", k) + (im.mime == "image/heic" ? ".HEIC" : im.mime == "image/png" ? ".PNG" : ".JPG");
    } else {
      const long long j = k - p.images;  // 4 groups of `extra`
      const int group = static_cast<int>(j / extra);
      const long long n = j % extra;
      im.date = (n * p.images / extra) * 600 + 300;
      if (group < kExtraDrives) {
        im.drive = p.drives + group;
      } else {
        im.drive = static_cast<int>((r >> 16) % p.drives);
        im.trashed = true;
      }
      im.name = fmt("IMG_X%07lld.JPG", j);
    }
    im.id = uuid_for("photos.file", static_cast<std::uint64_t>(k));
    return im;
  };
  static const char* makes[] = {"Apple", "Google", "Samsung", "Canon", "Sony"};
  static const char* models[] = {"iPhone 15", "Pixel 8", "Galaxy S24", "EOS R6", "A7 IV"};
  {
    CopyIn files(c, std::string("COPY files ") + kFileCols + " FROM STDIN");
    for (long long k = 0; k < total_images; ++k) {
      const Image im = image(static_cast<long long>(permute(static_cast<std::uint64_t>(k), total_images)));
      const std::string date = timestamp(im.date);
      files.field(im.id)
          .field(im.name)
          .field(folder_id(im.drive, im.album))
          .field(drive_id(im.drive))
          .field(static_cast<long long>(200'000 + rnd("photos.size", k) % 6'000'000))
          .field(im.mime)
          .field(im.trashed ? "t" : "f")
          .field(timestamp(im.date + 3600))
          .field(timestamp(im.date + 3600))
          .field(date)
          .field(1LL)
          .end_row();
    }
    for (int k = 0; k < docs; ++k) {
      const int d = k % p.drives;
      files.field(uuid_for("photos.doc", k))
          .field(fmt("Report %05lld.pdf", k))
          .field(folder_id(d, k % kAlbums))
          .field(drive_id(d))
          .field(static_cast<long long>(10'000 + k))
          .field("application/pdf")
          .field("f")
          .field(timestamp(k * 1000LL))
          .field(timestamp(k * 1000LL))
          .null()
          .field(3LL)
          .end_row();
    }
    rows += files.finish();
  }
  {
    CopyIn meta(c, "COPY file_metadata (file_id, captured_at, width, height, camera_make, camera_model) FROM STDIN");
    for (long long k = 0; k < total_images; ++k) {
      const Image im = image(static_cast<long long>(permute(static_cast<std::uint64_t>(k), total_images)));
      const std::uint64_t r = rnd("photos.meta", static_cast<std::uint64_t>(k));
      const bool portrait = r & 1;
      meta.field(im.id)
          .field(timestamp(im.date))
          .field(portrait ? 3024LL : 4032LL)
          .field(portrait ? 4032LL : 3024LL)
          .field(makes[(r >> 4) % 5])
          .field(models[(r >> 4) % 5])
          .end_row();
    }
    rows += meta.finish();
  }
  create_indexes(c, "public");
  record_fixture(c, "photos", {{"images", p.images}, {"drives", p.drives}});
  finish(c, total_images + docs);
  return {rows, timer.seconds()};
}

}  // namespace perfgate::seeders::filecloud
