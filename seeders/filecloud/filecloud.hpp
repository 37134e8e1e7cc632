// The file-cloud schema of SCENARIOS.md and deterministic fillers for the three PostgreSQL
// scenarios (keyset_listing, folder_keyset, photos_timeline). Every table is loaded with
// COPY ... FROM STDIN, indexes and foreign keys are built after the load, then
// VACUUM (ANALYZE) with a statistics target large enough that ANALYZE reads every row, so
// the planner statistics are deterministic too. Same parameters -> same bytes -> same plans.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "postgres/pg_client.hpp"

namespace perfgate::seeders::filecloud {

// Bump whenever the seeded content, the schema or the indexes change: it is part of the
// template database's name (scenario.json fixture.version carries the same number). v2: the
// seeded catalog is recorded in perfgate_catalog (pg_scenario::record_catalog).
inline constexpr int kVersion = 2;

struct SeedStats {
  long long rows = 0;  // rows loaded, every table
  double seconds = 0;  // wall time: DDL, COPY, indexes, VACUUM ANALYZE
  nlohmann::json to_json() const {
    return {{"rows", rows}, {"seconds", seconds}, {"rows_per_second", seconds > 0 ? rows / seconds : 0.0}};
  }
};

// --- deterministic identities -------------------------------------------------------------

// A version-4-shaped UUID that depends only on (kind, index).
std::string uuid_for(std::string_view kind, std::uint64_t index);
// "2024-01-01 00:00:00+00" plus `seconds`, UTC.
std::string timestamp(std::int64_t seconds_after_epoch_2024);

// The ids the scenarios query by (stable across seeds).
std::string caller_user_id();         // the user whose timeline is listed
std::string listing_folder_id();      // keyset_listing: the folder holding 300 dirs + 20k files
std::string walk_parent_folder_id();  // folder_keyset: the folder holding 5k sub-folders
// The fixed "now" of the photos fixture: grants expiring before it are expired.
std::string photos_now();

// --- schema ---------------------------------------------------------------------------------

// Tables only (load first, index after).
void create_tables(fixtures::PgConnection& conn, const std::string& schema);
// Primary keys are part of create_tables; these are the secondary indexes and foreign keys
// of the application's schema (unique names per parent, the photo timeline index).
void create_indexes(fixtures::PgConnection& conn, const std::string& schema);
// The keyset_listing migration (20260918000000): (parent, LOWER(name), id) expression
// indexes on live rows.
void create_listing_indexes(fixtures::PgConnection& conn, const std::string& schema);

// --- the three shapes ------------------------------------------------------------------------

struct ListingParams {
  int folders = 300;
  int files = 20000;
};
// One folder holding `folders` sub-folders Dir_000001... and `files` files File_00000001.JPG...
// in two schemas with the same rows: `premigration` (the application's indexes) and
// `migrated` (plus the listing indexes).
SeedStats seed_listing(const std::string& dsn, const ListingParams& p);

struct FolderTreeParams {
  int subfolders = 5000;
};
// One folder holding `subfolders` sub-folders (names in an order unrelated to insertion).
SeedStats seed_folder_tree(const std::string& dsn, const FolderTreeParams& p);

struct PhotosParams {
  int images = 50000;
  int drives = 3;
};
// `drives` shared drives granted to the caller holding `images` images with strictly
// distinct capture dates, plus what a real library has and the queries must leave out: an
// ungranted drive, an expired grant, a drive excluded from the photo index, trashed images
// and non-media files (about 3% of the rows together).
SeedStats seed_photos(const std::string& dsn, const PhotosParams& p);

// --- fixture identity -------------------------------------------------------------------------

// Records (shape, params, kVersion) in table perfgate_fixture; check_fixture throws a clear
// message when a run's parameters differ from what the database was seeded with.
void record_fixture(fixtures::PgConnection& conn, const std::string& shape, const nlohmann::json& params);
void check_fixture(fixtures::PgConnection& conn, const std::string& shape, const nlohmann::json& params);

}  // namespace perfgate::seeders::filecloud
