// folder_keyset: the WebDAV PROPFIND walker lists a folder's sub-folders 500 at a time until
// has_next is false. before.cpp and after.cpp page differently; main.cpp runs, times and
// digests both the same way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pg_scenario/pg_scenario.hpp"

namespace folder_keyset {

using Statement = perfgate::pg_scenario::Statement;

// Every page statement returns the answer's columns first: id, name (BEFORE adds its total).
constexpr int kAnswerColumns = 2;

struct Page {
  std::vector<std::string> names;  // in order; the page's rows are the result's first names.size()
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
// `lie`: "" (honest), "no-id" (the id column comes back NULL: the walk reads names only) or
// "stop-early" (asks for page_size rows, not one more, so has_next is never true: one page).
std::unique_ptr<Walker> make_after(const std::string& parent_id, int page_size, const std::string& lie = "");

// One sample: the full walk, timed; every answer column (id, name) of every row digested after.
perfgate::Report run(const perfgate::Invocation& inv);

}  // namespace folder_keyset
