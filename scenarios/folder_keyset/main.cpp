// folder_keyset (seed 000 [3]): the WebDAV PROPFIND walker lists a folder's sub-folders
// page by page (docs/scenario-contract.md; the SDK does the plumbing, run.cpp the sample).
//
//   folder_keyset seed --target DSN --params '{"subfolders":5000}'
//   folder_keyset run  --variant before|after --fixture DSN --params JSON [--lie LIE]
//
// Lies (the manifest's `lies`, each doing less than BEFORE): AFTER returning the names
// without their ids, and AFTER asking for page_size rows instead of one more, so has_next is
// never true and the walk stops after one page; "stale-listing", "walk-read-once" and
// "helper-index" (run.cpp) answer a probe from an earlier copy or build a helper index.
#include "filecloud/filecloud.hpp"
#include "perfgate/scenario_main.hpp"
#include "pg_scenario/pg_scenario.hpp"
#include "walk.hpp"

namespace fc = perfgate::seeders::filecloud;
namespace pgs = perfgate::pg_scenario;

int main(int argc, char** argv) {
  return perfgate::scenario_main(argc, argv,
                                 perfgate::ScenarioProgram("folder_keyset")
                                     .variants({"before", "after"})
                                     .seed([](const perfgate::Invocation& inv) {
                                       const auto stats =
                                           fc::seed_folder_tree(inv.target, {inv.param<int>("subfolders")});
                                       pgs::record_catalog(inv.target);
                                       return stats.to_json();
                                     })
                                     .run(folder_keyset::run));
}
