// The equivalence gate: BEFORE and AFTER must do the same work. Every sample's digest (or,
// for a sweep variant that does part of the work, the `extra` field it names) must equal the
// first one seen; on a mismatch the outputs are diffed to name the first differing line.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/manifest.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "load/response_book.hpp"
#include "model/results_model.hpp"
#include "run/batch_runner.hpp"
#include "run/not_equivalent.hpp"
#include "run/output_check.hpp"

namespace perfgate::gate {

// Thrown by the gates here and by the service sampler (run/ cannot see gate/): exit 3.
using run::EquivalenceFailure;

class EquivalenceGate {
 public:
  // `keys`: variant → which value it is compared on ("" = digest, else an extra field).
  // `check_argv` (`ab --check CMD`): where two digests differ, the user's command judges the two
  // outputs (run/output_check.hpp), once per distinct pair of digests; empty: they must be equal.
  EquivalenceGate(std::map<std::string, std::string> keys, fs::path keep_dir, std::vector<std::string> check_argv = {});
  // Throws EquivalenceFailure on a mismatch.
  void check(const run::Sample& s, const run::SampleFiles& files);
  // A gate result for the results file: passed, how many samples were compared, what was
  // masked (`ab --mask`) and how often, and what the check command accepted.
  model::GateResult result() const;
  // "--mask 'X' matched nothing": a mask that masks nothing is a typo or a stale pattern.
  std::vector<std::string> warnings() const;

 private:
  struct Reference {
    std::string value, variant;
    int round = 0;
    std::optional<fs::path> output;  // the reference sample's output, kept for diffing
    std::optional<fs::path> raw;     // and unmasked, for the check command
  };
  // True when the check command says the two outputs of a digest mismatch are the same work;
  // else adds what it said to `msg`.
  bool accepted_by_check(const Reference& ref, const std::string& value, const run::SampleFiles& files,
                         std::string& msg);
  std::string masks_summary() const;

  std::map<std::string, std::string> keys_;
  fs::path keep_dir_;
  std::vector<std::string> check_argv_;
  std::map<std::string, Reference> refs_;                                     // compared key → first value seen
  std::map<std::pair<std::string, std::string>, run::CheckVerdict> checked_;  // (reference, other) digests
  std::map<std::string, std::map<std::string, long>> masked_;                 // pattern → variant → matches
  int compared_ = 0, accepted_ = 0;
  std::optional<std::string> failure_;
};

// Service scenarios: every answer counts. The load generator checks each one in book() as it
// arrives (load::ResponseBook: within a variant every answer equals the path's first, and
// first answers agree across variants; status and body, warm-up included); the service
// sampler throws EquivalenceFailure on the first difference, and result() says what was
// checked.
class ResponseGate {
 public:
  load::ResponseBook& book() { return book_; }
  model::GateResult result() const;

 private:
  load::ResponseBook book_;
};

}  // namespace perfgate::gate
