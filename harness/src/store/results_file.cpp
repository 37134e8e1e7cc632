#include "store/results_file.hpp"

#include "common/files.hpp"
#include "measure/host.hpp"

namespace perfgate::store {

ResultsFile::ResultsFile(fs::path path, json run, json host) : path_(std::move(path)) {
  // nlohmann::json keeps keys sorted; ordered_json would keep insertion order, but the schema
  // only asks that schema_version be present, and readers look keys up by name.
  run["started_unix"] = now_unix();
  doc_ = {{"schema_version", kSchemaVersion},
          {"run", std::move(run)},
          {"host", std::move(host)},
          {"scenarios", json::array()},
          {"outcome", {{"exit_code", 0}, {"status", "running"}, {"message", ""}, {"failures", json::array()}}}};
  write();
}

void ResultsFile::put_scenario(const json& scenario) {
  for (auto& s : doc_["scenarios"])
    if (s["name"] == scenario["name"] && s["profile"] == scenario["profile"]) {
      s = scenario;
      write();
      return;
    }
  doc_["scenarios"].push_back(scenario);
  write();
}

void ResultsFile::finish(int exit_code, const std::string& status, const std::string& message,
                         const std::vector<std::string>& failures, const std::string& stop_reason) {
  doc_["run"]["finished_at"] = now_iso8601();
  doc_["run"]["finished_unix"] = now_unix();
  doc_["run"]["stop_reason"] = stop_reason;
  doc_["host"]["load_after"] = measure::load_average();
  doc_["outcome"] = {{"exit_code", exit_code}, {"status", status}, {"message", message}, {"failures", failures}};
  write();
}

void ResultsFile::write() const {
  if (path_.empty()) return;
  write_file_atomic(path_, doc_.dump(1) + "\n");
}

}  // namespace perfgate::store
