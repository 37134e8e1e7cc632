#include "store/layout_spread.hpp"

#include <cstdlib>

#include "common/files.hpp"

namespace perfgate::store {

std::filesystem::path layout_spread_file(const std::string& program) {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::filesystem::path base =
      xdg && *xdg ? std::filesystem::path(xdg) : std::filesystem::path(home && *home ? home : "/tmp") / ".cache";
  return base / "perfgate" / "layout-spread" / (std::filesystem::path(program).filename().string() + ".json");
}

nlohmann::json to_json(const LayoutSpread& s) {
  return {{"program", s.program},
          {"command", s.command},
          {"cpu_model", s.cpu_model},
          {"measured_at", s.measured_at},
          {"metric", s.metric},
          {"unit", s.unit},
          {"layouts", s.layouts},
          {"rounds", s.rounds},
          {"medians", s.medians},
          {"spread", s.spread},
          {"layout_sd", s.layout_sd},
          {"noise_sd", s.noise_sd},
          {"trusted_change", s.trusted_change}};
}

void write_layout_spread(const LayoutSpread& s) {
  const auto file = layout_spread_file(s.program);
  std::filesystem::create_directories(file.parent_path());
  write_file_atomic(file, to_json(s).dump(2) + "\n");
}

std::optional<LayoutSpread> read_layout_spread(const std::string& program) {
  const auto text = try_read_file(layout_spread_file(program));
  if (!text) return std::nullopt;
  const auto j = nlohmann::json::parse(*text, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  try {
    LayoutSpread s;
    s.program = j.at("program").get<std::string>();
    s.command = j.value("command", "");
    s.cpu_model = j.value("cpu_model", "");
    s.measured_at = j.value("measured_at", "");
    s.metric = j.value("metric", "");
    s.unit = j.value("unit", "");
    s.layouts = j.at("layouts").get<int>();
    s.rounds = j.value("rounds", 0);
    s.medians = j.value("medians", std::vector<double>{});
    s.spread = j.at("spread").get<double>();
    s.layout_sd = j.at("layout_sd").get<double>();
    s.noise_sd = j.value("noise_sd", 0.0);
    s.trusted_change = j.at("trusted_change").get<double>();
    return s;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // a record of another version: as if none
  }
}

}  // namespace perfgate::store
