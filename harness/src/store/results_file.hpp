// The results document of one run (docs/results-schema.md), rewritten atomically after every
// scenario and at every exit, so it always holds what completed and why the run stopped. It
// holds model values; store::to_json(model::ResultsDoc) writes them.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/time_stamp.hpp"
#include "model/results_model.hpp"

namespace perfgate::store {

namespace fs = std::filesystem;
using json = nlohmann::json;

inline constexpr int kSchemaVersion = 1;

// How a run ended, from its exit code: the results' outcome.status (run.stop_reason says it in
// other words).
struct RunEnding {
  int exit_code;
  model::RunStatus status;
};
RunEnding run_ending(int exit_code, bool interrupted);

class ResultsFile {
 public:
  ResultsFile(fs::path path, model::RunHeader run, model::HostInfo host);
  // Adds or replaces (by name and profile) a scenario entry and writes the file.
  void put_scenario(const model::ScenarioResult& scenario);
  // `message`: the first failure, else the status's name.
  void finish(const RunEnding& end, const std::vector<std::string>& failures);
  void write() const;
  const model::ResultsDoc& document() const { return doc_; }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  model::ResultsDoc doc_;
};

// The time stamps live in common/; these names stay for the store's own files.
using perfgate::now_iso8601;
using perfgate::now_unix;

}  // namespace perfgate::store
