#include "run/witness.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"

namespace perfgate::run {

std::filesystem::path witness_dir(const std::filesystem::path& work) {
  const auto dir = work.parent_path() / "witness";
  std::filesystem::create_directories(dir);
  return dir;
}

void add_witness_metrics(Sample& s, const std::filesystem::path& dir, const std::string& what) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".json") continue;
    const std::string file = e.path().filename().string();
    std::ifstream in(e.path());
    const auto j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("metrics") || !j["metrics"].is_object())
      throw RunError(what + ": the witness file " + file + " is not {\"metrics\": {...}}");
    for (const auto& [name, m] : j["metrics"].items()) {
      if (!m.is_object() || !m.contains("value") || !m["value"].is_number())
        throw RunError(what + ": the witness file " + file + ": metrics." + name + ".value must be a number");
      if (s.metrics.count(name))
        throw RunError(what + ": the witness file " + file + " names " + name + ", which the sample already has");
      MetricValue v{m["value"].get<double>(), m.value("unit", ""), Better::Lower, "witness:" + file};
      v.exact = m.value("exact", false);
      s.metrics[name] = v;
    }
  }
}

}  // namespace perfgate::run
