// blob_stampede (seed 000 [5]): cold readers stampede a blob cache in front of a slow remote
// (docs/scenario-contract.md; the SDK does the plumbing, stampede_sample.cpp the work). The
// remote store is remote_server.cpp (the blob_remote program).
//
//   blob_stampede seed --profile P --target DIR --params JSON
//   blob_stampede run  --variant before|after --profile P --fixture DIR --params JSON
//                      [--remote-bin PATH] [--keep-cache DIR] [--lie truncated-hit|empty-hit|waiters-no-wait|
//                                                            any-cached-file|swap-first-chunks|one-gate|
//                                                            no-fsync|background-fill|empty-on-404|
//                                                            fewer-fetches-told|early-stampede-clock]
//
// Lies (blob_cache.hpp; AFTER only, each serving less than BEFORE): a hit served without its
// last chunk, or served nothing.
#include <perfgate/scenario_main.hpp>

#include "stampede_sample.hpp"

int main(int argc, char** argv) {
  return perfgate::scenario_main(argc, argv,
                                 perfgate::ScenarioProgram("blob_stampede")
                                     .variants({"before", "after"})
                                     .seed(blob_stampede::seed)
                                     .run(blob_stampede::run));
}
