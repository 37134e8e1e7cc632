#include "bisect/step_store.hpp"

#include <cstdio>

#include "common/files.hpp"
#include "perfgate/sample.hpp"

namespace perfgate::bisect {

using json = nlohmann::json;

json to_json(const StepResult& r) {
  json j = {{"verdict", name_of(r.verdict)}, {"rounds", r.rounds}, {"alpha", r.alpha}, {"note", r.note}};
  j["ratio"] = r.ratio > 0 ? json(r.ratio) : json(nullptr);
  j["ci"] = r.ratio > 0 ? json::array({r.lo, r.hi}) : json(nullptr);
  return j;
}

StepResult step_from_json(const json& j) {
  StepResult r;
  r.verdict = from_name<Verdict>(j.value("verdict", "")).value_or(Verdict::CannotTell);
  r.rounds = j.value("rounds", 0);
  r.alpha = j.value("alpha", 0.0);
  r.note = j.value("note", "");
  if (j.contains("ratio") && j["ratio"].is_number()) {
    r.ratio = j["ratio"].get<double>();
    r.lo = j["ci"].at(0).get<double>();
    r.hi = j["ci"].at(1).get<double>();
  }
  return r;
}

std::filesystem::path StepStore::file(const std::string& good, const std::string& tested, double alpha) const {
  Digest d;
  d.field(identity_.dump());
  d.field(good);
  d.field(tested);
  char level[32];
  std::snprintf(level, sizeof level, "%.12g", alpha);
  d.field(level);
  return dir_ / (d.hex().substr(0, 20) + ".step.json");
}

std::optional<std::pair<StepResult, std::string>> StepStore::find(const std::string& good, const std::string& tested,
                                                                  double alpha) const {
  const auto text = try_read_file(file(good, tested, alpha));
  if (!text) return std::nullopt;
  const json j = json::parse(*text, nullptr, false);
  if (!j.is_object() || !j.contains("step")) return std::nullopt;
  return std::make_pair(step_from_json(j["step"]), j.value("metric", std::string()));
}

void StepStore::keep(const std::string& good, const std::string& tested, double alpha, const StepResult& r,
                     const std::string& metric) const {
  std::filesystem::create_directories(dir_);
  write_file_atomic(file(good, tested, alpha),
                    json{{"good", good}, {"tested", tested}, {"metric", metric}, {"step", to_json(r)}}.dump(2) + "\n");
}

}  // namespace perfgate::bisect
