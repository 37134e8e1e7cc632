// auth_herd (seed 000 [4]): a herd of callers on a cold credential cache over Argon2id
// (docs/scenario-contract.md; the SDK does the plumbing, herd_sample.cpp the work).
//
//   auth_herd seed --profile P --target DIR --params JSON
//   auth_herd run  --variant V --profile P --fixture DIR --params JSON [--impl before|after]
//                  [--wrong-password] [--lie NAME]  (the manifest's lies, auth_cache.hpp)
//
// The harness measures the herd's CPU from outside (cgroup cpu_ms, the primary metric); the
// program reports its own figures beside it. Lies (auth_cache.hpp) run on AFTER only.
#include <perfgate/scenario_main.hpp>

#include "herd_sample.hpp"

int main(int argc, char** argv) {
  return perfgate::scenario_main(argc, argv,
                                 perfgate::ScenarioProgram("auth_herd").seed(auth_herd::seed).run(auth_herd::run));
}
