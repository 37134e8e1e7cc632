// The results document of one run (docs/results-schema.md), rewritten atomically after every
// scenario and at every exit, so it always holds what completed and why the run stopped.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/time_stamp.hpp"

namespace perfgate::store {

namespace fs = std::filesystem;
using json = nlohmann::json;

inline constexpr int kSchemaVersion = 1;

class ResultsFile {
 public:
  ResultsFile(fs::path path, json run, json host);
  // Adds or replaces (by name) a scenario entry and writes the file.
  void put_scenario(const json& scenario);
  void finish(int exit_code, const std::string& status, const std::string& message,
              const std::vector<std::string>& failures, const std::string& stop_reason);
  void write() const;
  const json& document() const { return doc_; }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  json doc_;
};

// The time stamps live in common/; these names stay for the store's own files.
using perfgate::now_iso8601;
using perfgate::now_unix;

}  // namespace perfgate::store
