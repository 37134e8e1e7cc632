// Steps a run of `perfgate bisect` finished, kept in the cache so a second run (after Ctrl-C, a
// crash, or to see the table again) does not time them again. A step is the same step when its
// good and tested commits, command, build command, metric, band, level, budget and scripted
// samples are the same: CACHE/steps/<digest of those>.step.json.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "bisect/search.hpp"

namespace perfgate::bisect {

class StepStore {
 public:
  // `identity`: everything a step's verdict depends on besides its two commits and its level.
  StepStore(std::filesystem::path dir, nlohmann::json identity)
      : dir_(std::move(dir)), identity_(std::move(identity)) {}
  // The step and the metric it measured, when a run finished it.
  std::optional<std::pair<StepResult, std::string>> find(const std::string& good, const std::string& tested,
                                                         double alpha) const;
  void keep(const std::string& good, const std::string& tested, double alpha, const StepResult& r,
            const std::string& metric) const;

 private:
  std::filesystem::path file(const std::string& good, const std::string& tested, double alpha) const;
  std::filesystem::path dir_;
  nlohmann::json identity_;
};

nlohmann::json to_json(const StepResult& r);
StepResult step_from_json(const nlohmann::json& j);

}  // namespace perfgate::bisect
