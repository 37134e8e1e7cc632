// keyset_listing: the web UI's folder listing, folders first, then files, 200 a page,
// drained to the end, in two orders. before.cpp and after.cpp each say which SQL runs for a
// page; main.cpp runs, times, digests and explains them the same way for every variant.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pg_scenario/pg_scenario.hpp"

namespace keyset_listing {

enum class Order {
  Name,      // folders first, then LOWER(name), id
  Modified,  // folders first, then updated_at DESC, id DESC
};

// The keyset cursor: the last row of the previous page.
struct Cursor {
  bool in_files;           // the last row was a file (the folder group is exhausted)
  std::string sort_str;    // its LOWER(name)
  std::string updated_at;  // its updated_at (text, UTC)
  std::string id;          // its id
};

using Statement = perfgate::pg_scenario::Statement;

// Every statement returns the same columns, in this order:
//   type ('folder' | 'file'), id, name, size (NULL for folders), updated_at, sort_str
class Lister {
 public:
  virtual ~Lister() = default;
  // Every statement this variant may run: (name, sql, number of parameters).
  virtual std::vector<Statement> statements() const = 0;
  // The statement and parameters for one page; no cursor for the first page.
  virtual Statement page(Order order, const std::optional<Cursor>& cursor, int limit) const = 0;
};

// BEFORE: the cursor applied outside the folders UNION ALL files, on computed columns.
std::unique_ptr<Lister> make_before(const std::string& folder_id);
// AFTER's lies (the manifest's `lies`, each doing less than BEFORE): "null-size" has the file
// branch return NULL AS size; "no-tiebreak" sorts by the key alone, without the id that orders
// rows of one key (the folders share one modification time).
struct Lies {
  bool null_size = false, no_tiebreak = false;
};
// AFTER: the cursor pushed into each branch on base columns, constants decided here.
std::unique_ptr<Lister> make_after(const std::string& folder_id, Lies lies = {});

// One sample: drains both orders with the variant's statements, digests every column of
// every row (outside the timed pages), explains one page per order.
perfgate::Report run(const perfgate::Invocation& inv);

}  // namespace keyset_listing
