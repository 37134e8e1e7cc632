// photos_timeline (seed 000 [2]): the caller's photo timeline across every drive shared with
// them (docs/scenario-contract.md; the SDK does the plumbing, run.cpp the sample).
//
//   photos_timeline seed --target DSN --params '{"images":50000,"drives":3}'
//   photos_timeline run  --variant before|after --fixture DSN --params JSON
//                        [--lie NAME]   (the manifest's `lies`)
//
// Lies (each doing less than BEFORE): AFTER without the file_metadata join (width, height,
// camera NULL), without the folders join (path NULL), keeping the drive of an expired grant,
// keeping the drives of the object's first listing, comparing the cursor on the date alone,
// one static slot for every timeline's drives, or every page cut from rows start() fetched.
#include "filecloud/filecloud.hpp"
#include "perfgate/scenario_main.hpp"
#include "pg_scenario/pg_scenario.hpp"
#include "timeline.hpp"

namespace fc = perfgate::seeders::filecloud;
namespace pgs = perfgate::pg_scenario;

int main(int argc, char** argv) {
  return perfgate::scenario_main(
      argc, argv,
      perfgate::ScenarioProgram("photos_timeline")
          .variants({"before", "after"})
          .seed([](const perfgate::Invocation& inv) {
            const auto stats = fc::seed_photos(inv.target, {inv.param<int>("images"), inv.param<int>("drives")});
            pgs::record_catalog(inv.target);
            return stats.to_json();
          })
          .run(photos_timeline::run));
}
