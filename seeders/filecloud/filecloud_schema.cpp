// The file-cloud schema (tables, indexes) and the fixture identity record every seeder writes
// and every run checks. The fillers are in filecloud.cpp.
#include <stdexcept>

#include "filecloud/filecloud.hpp"

namespace perfgate::seeders::filecloud {

using fixtures::PgConnection;

// --- schema -----------------------------------------------------------------------------------

void create_tables(PgConnection& c, const std::string& s) {
  c.exec("CREATE SCHEMA IF NOT EXISTS " + s);
  c.exec("SET search_path = " + s);
  c.exec(R"sql(
CREATE TABLE drives (
  id          uuid PRIMARY KEY,
  name        text NOT NULL,
  kind        text NOT NULL,                 -- personal | shared
  policies    jsonb NOT NULL DEFAULT '{}',   -- {"include_in_photo_index": bool}
  created_at  timestamptz NOT NULL
);
CREATE TABLE role_grants (
  subject_type  text NOT NULL,               -- user | group
  subject_id    uuid NOT NULL,
  resource_type text NOT NULL,               -- drive | folder | file
  resource_id   uuid NOT NULL,
  role          text NOT NULL,               -- viewer | editor | owner
  expires_at    timestamptz,
  PRIMARY KEY (subject_type, subject_id, resource_type, resource_id)
);
CREATE TABLE folders (
  id          uuid PRIMARY KEY,
  name        text NOT NULL,
  parent_id   uuid,
  path        text NOT NULL,
  drive_id    uuid NOT NULL,
  is_trashed  boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE TABLE files (
  id              uuid PRIMARY KEY,
  name            text NOT NULL,
  folder_id       uuid NOT NULL,
  drive_id        uuid NOT NULL,
  size            bigint NOT NULL,
  mime_type       text NOT NULL,
  is_trashed      boolean NOT NULL DEFAULT false,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  media_sort_date timestamptz,
  category_order  smallint NOT NULL
);
CREATE TABLE file_metadata (
  file_id      uuid PRIMARY KEY,
  captured_at  timestamptz,
  width        integer,
  height       integer,
  camera_make  text,
  camera_model text
);
)sql");
  c.exec("RESET search_path");
}

void create_indexes(PgConnection& c, const std::string& s) {
  c.exec("SET search_path = " + s);
  c.exec(R"sql(
ALTER TABLE folders ADD FOREIGN KEY (parent_id) REFERENCES folders (id);
ALTER TABLE folders ADD FOREIGN KEY (drive_id) REFERENCES drives (id);
ALTER TABLE files ADD FOREIGN KEY (folder_id) REFERENCES folders (id);
ALTER TABLE files ADD FOREIGN KEY (drive_id) REFERENCES drives (id);
ALTER TABLE file_metadata ADD FOREIGN KEY (file_id) REFERENCES files (id) ON DELETE CASCADE;
CREATE UNIQUE INDEX idx_folders_unique_name ON folders (parent_id, name) WHERE NOT is_trashed;
CREATE UNIQUE INDEX idx_files_unique_name ON files (folder_id, name) WHERE NOT is_trashed;
CREATE INDEX idx_folders_drive ON folders (drive_id);
CREATE INDEX idx_role_grants_resource ON role_grants (resource_type, resource_id);
CREATE INDEX idx_files_media_timeline_by_drive ON files (drive_id, media_sort_date DESC)
  WHERE NOT is_trashed AND (mime_type LIKE 'image/%' OR mime_type LIKE 'video/%');
)sql");
  c.exec("RESET search_path");
}

void create_listing_indexes(PgConnection& c, const std::string& s) {
  c.exec("SET search_path = " + s);
  c.exec(R"sql(
CREATE INDEX idx_files_folder_lname ON files (folder_id, LOWER(name), id) WHERE NOT is_trashed;
CREATE INDEX idx_folders_parent_lname ON folders (parent_id, LOWER(name), id) WHERE NOT is_trashed;
)sql");
  c.exec("RESET search_path");
}

// --- fixture identity ---------------------------------------------------------------------------

void record_fixture(PgConnection& c, const std::string& shape, const nlohmann::json& params) {
  c.exec(
      "CREATE TABLE IF NOT EXISTS public.perfgate_fixture (shape text PRIMARY KEY, seeder text NOT NULL, "
      "version integer NOT NULL, params jsonb NOT NULL)");
  c.exec_params("INSERT INTO public.perfgate_fixture VALUES ($1, 'filecloud', $2, $3)",
                {shape, std::to_string(kVersion), params.dump()});
}

void check_fixture(PgConnection& c, const std::string& shape, const nlohmann::json& params) {
  auto r = c.exec_params(
      "SELECT version, params::text FROM public.perfgate_fixture WHERE shape = $1 AND seeder = 'filecloud'", {shape});
  if (r.rows() != 1)
    throw std::runtime_error("the fixture database holds no filecloud '" + shape +
                             "' data: seed it with this scenario's `seed` command first");
  const long long version = r.integer(0, 0);
  const auto seeded = nlohmann::json::parse(r.str(0, 1));
  if (version != kVersion || seeded != params)
    throw std::runtime_error("the fixture was seeded by filecloud seeder v" + std::to_string(version) + " with " +
                             seeded.dump() + ", this run expects v" + std::to_string(kVersion) + " with " +
                             params.dump() +
                             ": reseed it (a template is named by its parameters, so the harness "
                             "does this by itself unless the template name was reused)");
}

}  // namespace perfgate::seeders::filecloud
