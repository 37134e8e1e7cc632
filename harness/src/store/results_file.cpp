#include "store/results_file.hpp"

#include "common/errors.hpp"
#include "common/files.hpp"
#include "measure/host.hpp"
#include "store/results_codec.hpp"

namespace perfgate::store {

ResultsFile::ResultsFile(fs::path path, model::RunHeader run, model::HostInfo host) : path_(std::move(path)) {
  run.started_unix = now_unix();
  doc_.run = std::move(run);
  doc_.host = std::move(host);
  write();
}

void ResultsFile::put_scenario(const model::ScenarioResult& scenario) {
  for (auto& s : doc_.scenarios)
    if (s.name == scenario.name && s.profile == scenario.profile) {
      s = scenario;
      write();
      return;
    }
  doc_.scenarios.push_back(scenario);
  write();
}

RunEnding run_ending(int exit_code, bool interrupted) {
  using model::RunStatus;
  if (interrupted) return {kExitInterrupted, RunStatus::Interrupted};
  if (exit_code == kExitOk) return {exit_code, RunStatus::Passed};
  if (exit_code == kExitRun) return {exit_code, RunStatus::Error};
  if (exit_code == kExitCannotTell) return {exit_code, RunStatus::CannotTell};
  return {exit_code, RunStatus::Failed};
}

void ResultsFile::finish(const RunEnding& end, const std::vector<std::string>& failures) {
  doc_.run.finished_at = now_iso8601();
  doc_.run.finished_unix = now_unix();
  const auto load = measure::load_average();
  doc_.host.load_after.assign(load.begin(), load.end());
  doc_.outcome = {end.exit_code, end.status, failures.empty() ? std::string(name_of(end.status)) : failures.front(),
                  failures};
  write();
}

// nlohmann::json keeps keys sorted; readers look keys up by name, and the schema only asks that
// schema_version be present. Program bytes are quoted printable where they come in
// (common/printable_text); a string that still is not UTF-8 (a command typed in Latin-1) is
// written with U+FFFD for its bad bytes rather than lose the whole file.
void ResultsFile::write() const {
  if (path_.empty()) return;
  write_file_atomic(path_, to_json(doc_).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace perfgate::store
