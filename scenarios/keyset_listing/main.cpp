// keyset_listing (seed 000 [1]): the web UI's folder listing, drained page by page in two
// orders (docs/scenario-contract.md; the SDK does the plumbing).
//
//   keyset_listing seed --target DSN --params '{"folders":300,"files":20000}'
//   keyset_listing run  --variant before|before-with-indexes|after --fixture DSN --params JSON
//                       [--lie LIE]
//
// Variants: `before` runs before.cpp's SQL on the schema without the listing indexes
// (`premigration`), `before-with-indexes` the same SQL on the schema with them (`migrated`,
// same rows), `after` runs after.cpp's SQL on `migrated` (run.cpp drains, times, digests).
// Lies (the manifest's `lies`, each doing less than BEFORE): "null-size" returns NULL AS size
// for files; "stop-early" stops the name order half-way; "no-tiebreak" sorts without the id that
// orders rows of one sort key; "stale-listing" answers the drain after a write from the timed one;
// "drain-read-once" fetches the drain during a race at its first page; "helper-index" builds a
// covering index in the fixture during the warm-up round.
#include "filecloud/filecloud.hpp"
#include "listing.hpp"
#include "perfgate/scenario_main.hpp"
#include "pg_scenario/pg_scenario.hpp"

namespace fc = perfgate::seeders::filecloud;
namespace pgs = perfgate::pg_scenario;

int main(int argc, char** argv) {
  return perfgate::scenario_main(
      argc, argv,
      perfgate::ScenarioProgram("keyset_listing")
          .variants({"before", "before-with-indexes", "after"})
          .seed([](const perfgate::Invocation& inv) {
            const auto stats = fc::seed_listing(inv.target, {inv.param<int>("folders"), inv.param<int>("files")});
            pgs::record_catalog(inv.target);
            return stats.to_json();
          })
          .run(keyset_listing::run));
}
