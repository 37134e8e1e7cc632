#include "suite/fingerprint.hpp"

#include <xxhash.h>

#include <cstdio>

#include "common/files.hpp"
#include "run/metric_specs.hpp"

namespace perfgate::suite {
namespace {

using json = nlohmann::json;

// The manifest as the work sees it: words for people and decisions about the figures
// (claims, anchors, lies, policy, other profiles) change no figure, nor do the variants a
// baseline entry does not compare (sweeps, references). Where the program lives is not what
// it does: its sources are in sources.sha256.
json work_shaping(const catalog::Manifest& m, const std::string& profile, const json& params) {
  json variants = json::array();
  for (const auto& v : m.variants)
    if (v.gated())
      variants.push_back(
          {{"name", v.name}, {"args", v.args}, {"workload", v.workload}, {"equivalence", v.equivalence}});
  auto p = m.profiles.find(profile);
  return {
      {"name", m.name},
      {"kind", name_of(m.kind)},
      {"fixture", {name_of(m.fixture_kind), m.fixture_version}},
      {"cpus", m.cpus},
      {"measure", m.measure},
      {"variants", variants},
      {"service", m.service},
      {"workloads", m.workloads},
      {"profile", {{"name", profile}, {"params", params}, {"load", p == m.profiles.end() ? json() : p->second.load}}}};
}

std::string fingerprint_of(const catalog::Manifest& m, const json& work) {
  std::string sources = m.dir.empty() ? "" : try_read_file(m.dir / "sources.sha256").value_or("");
  while (!sources.empty() && (sources.back() == '\n' || sources.back() == ' ')) sources.pop_back();
  const std::string text = "measurement " + std::to_string(run::kMeasurementVersion) + "\nsources " +
                           (sources.empty() ? "-" : sources) + "\nwork " + work.dump() + "\n";
  const XXH128_hash_t h = XXH3_128bits(text.data(), text.size());
  char hex[17];
  // 64 bits tell a scenario's versions apart well enough, and read shorter.
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h.high64 ^ h.low64));
  return hex;
}

}  // namespace

std::string scenario_fingerprint(const plan::ScenarioPlan& sp) {
  json work = work_shaping(sp.manifest, sp.profile, sp.params);
  if (const auto* user = sp.commands()) work["commands"] = {user->before_argv, user->after_argv};
  return fingerprint_of(sp.manifest, work);
}

bool same_work(const catalog::Manifest& a, const catalog::Manifest& b, const std::string& profile) {
  auto params = [&](const catalog::Manifest& m) {
    auto p = m.profiles.find(profile);
    return p == m.profiles.end() ? json() : p->second.params;
  };
  return work_shaping(a, profile, params(a)) == work_shaping(b, profile, params(b));
}

std::string declared_fingerprint(const catalog::Manifest& m, const std::string& profile) {
  auto p = m.profiles.find(profile);
  return p == m.profiles.end() ? "" : fingerprint_of(m, work_shaping(m, profile, p->second.params));
}

}  // namespace perfgate::suite
