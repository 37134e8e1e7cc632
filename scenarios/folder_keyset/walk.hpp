// folder_keyset: the WebDAV PROPFIND walker lists a folder's sub-folders 500 at a time until
// has_next is false. before.cpp and after.cpp page differently; main.cpp runs, times and
// digests both the same way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "postgres/pg_client.hpp"

namespace folder_keyset {

struct Statement {
  std::string name;  // prepared statement name
  std::string sql;
  std::vector<perfgate::fixtures::PgParam> params;
};

struct Page {
  std::vector<std::string> names;  // in order
  bool has_next = false;
};

class Walker {
 public:
  virtual ~Walker() = default;
  // Every statement this variant prepares (params empty).
  virtual std::vector<Statement> statements() const = 0;
  // The statement and parameters of the next page.
  virtual Statement next() const = 0;
  // Reads the page `next()` returned and advances to the following one.
  virtual Page read(const perfgate::fixtures::PgResult& result) = 0;
};

// BEFORE: LIMIT/OFFSET with COUNT(*) OVER () per page; has_next from the total.
std::unique_ptr<Walker> make_before(const std::string& parent_id, int page_size);
// AFTER: keyset name > $last on idx_folders_unique_name; has_next from the page length.
std::unique_ptr<Walker> make_after(const std::string& parent_id, int page_size);

}  // namespace folder_keyset
