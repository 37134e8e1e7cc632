// s3_put (seed 000 [8]): content-addressed chunks PUT to an S3-style store on loopback, with
// (BEFORE) or without (AFTER) a HEAD probe before each PUT (docs/scenario-contract.md; the SDK
// does the plumbing, put_sample.cpp the work). The store is s3_store.cpp, a separate process
// this program starts and stops. No fixture: the chunks are made from a fixed PRNG.
//
//   s3_put run --variant before|after --profile P --params JSON [--store-bin PATH]
//              [--lie skip-last-chunk|empty-body|remembered-puts|shared-body|unread-responses|
//                     fewer-requests-told|late-put-clock]
//
// Lies (AFTER only, each sending less than BEFORE): the last chunk never PUT, or every chunk
// PUT with an empty body.
#include <perfgate/scenario_main.hpp>

#include "put_sample.hpp"

int main(int argc, char** argv) {
  return perfgate::scenario_main(argc, argv,
                                 perfgate::ScenarioProgram("s3_put").variants({"before", "after"}).run(s3_put::run));
}
