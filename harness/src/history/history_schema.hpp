// The history's tables and their versions (the schema in history_db.hpp): reading which version
// a database is at, and creating or migrating its tables to kHistorySchemaVersion.
#pragma once

#include <string>

#include "history/history_sql.hpp"

namespace perfgate::history {

// 0: no perfgate tables yet. Throws UsageError, naming `what`, for another program's database
// or a version this perfgate neither reads nor migrates.
int schema_version(Sql& sql, const std::string& what);

// Creates or migrates the tables to kHistorySchemaVersion. Inside a schema change
// (Sql::begin_schema_change), so the version is read again: another perfgate may have created
// or migrated the tables since.
void upgrade_schema(Sql& sql, const std::string& what);

}  // namespace perfgate::history
