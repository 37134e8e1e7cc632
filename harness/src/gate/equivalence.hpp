// The equivalence gate: BEFORE and AFTER must do the same work. Every sample's digest (or,
// for a sweep variant that does part of the work, the `extra` field it names) must equal the
// first one seen; on a mismatch the outputs are diffed to name the first differing line.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "catalog/manifest.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "run/batch_runner.hpp"

namespace perfgate::gate {

struct EquivalenceFailure : Error {
  explicit EquivalenceFailure(const std::string& m) : Error(kExitEquivalence, m) {}
};

class EquivalenceGate {
 public:
  // `keys`: variant → which value it is compared on ("" = digest, else an extra field).
  EquivalenceGate(std::map<std::string, std::string> keys, fs::path keep_dir);
  // Throws EquivalenceFailure on a mismatch.
  void check(const run::Sample& s, const run::SampleFiles& files);
  // A gate result for the results file: passed, and how many samples were compared.
  nlohmann::json result() const;

 private:
  struct Reference {
    std::string value, variant;
    int round = 0;
    std::optional<fs::path> output;  // the reference sample's output, kept for diffing
  };
  std::map<std::string, std::string> keys_;
  fs::path keep_dir_;
  std::map<std::string, Reference> refs_;  // compared key → first value seen
  int compared_ = 0;
  std::optional<std::string> failure_;
};

// Service scenarios: every path's response body must be the same under every variant (over
// the paths two variants both requested; workloads differ in which paths they ask for).
class ResponseGate {
 public:
  void check(const std::string& variant, int round, const std::map<std::string, std::string>& body_digests);
  nlohmann::json result() const;

 private:
  struct Seen {
    std::string digest, variant;
    int round;
  };
  std::map<std::string, Seen> seen_;
  std::size_t compared_ = 0;
  std::optional<std::string> failure_;
};

// The first line where two files differ: "line N: 'a' vs 'b'", or nullopt if they are equal.
std::optional<std::string> first_difference(const fs::path& a, const fs::path& b, const std::string& a_name,
                                            const std::string& b_name);

}  // namespace perfgate::gate
