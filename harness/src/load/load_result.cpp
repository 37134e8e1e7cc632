// LoadResult's figures: percentiles, the run digest, JSON.
#include <xxhash.h>

#include <algorithm>

#include "load/http_load.hpp"
#include "perfgate/percentile.hpp"

namespace perfgate::load {

double LoadResult::latency_ms(double p) const {
  if (latencies_us.empty()) return 0;
  return perfgate::percentile(latencies_us, p) / 1000.0;
}

std::string LoadResult::digest() const {
  XXH3_state_t* s = XXH3_createState();
  XXH3_128bits_reset(s);
  for (const auto& [path, d] : body_digest) {
    for (const std::string* f : {&path, &d}) {
      const std::uint64_t n = f->size();
      XXH3_128bits_update(s, &n, sizeof n);
      XXH3_128bits_update(s, f->data(), f->size());
    }
  }
  const XXH128_hash_t h = XXH3_128bits_digest(s);
  const std::string out = to_hex(BodyDigest{h.high64, h.low64});
  XXH3_freeState(s);
  return out;
}

nlohmann::json LoadResult::to_json(bool with_bodies) const {
  nlohmann::json status_json = nlohmann::json::object();
  for (const auto& [code, n] : status) status_json[std::to_string(code)] = n;
  std::vector<double> sorted = latencies_us;
  std::sort(sorted.begin(), sorted.end());
  auto pct = [&](double p) { return sorted.empty() ? 0.0 : perfgate::percentile_sorted(sorted, p) / 1000.0; };
  nlohmann::json j = {
      {"label", label},
      {"requests", requests},
      {"responses", responses},
      {"errors", errors},
      {"timeouts", timeouts},
      {"status", status_json},
      {"body_bytes", body_bytes},
      {"elapsed_s", elapsed_s},
      {"rps", rps},
      {"latency_ms", {{"p50", pct(0.5)}, {"p90", pct(0.9)}, {"p99", pct(0.99)}, {"max", pct(1.0)}}},
      {"latencies_recorded", latencies_us.size()},
      {"queued", queued},
      {"max_queue", max_queue},
      {"warmup_responses", warmup_responses},
      {"connects", connects},
      {"send_delay_us", {{"p50", send_delay_us_p50}, {"p99", send_delay_us_p99}, {"max", send_delay_us_max}}},
      {"wakeups", wakeups},
      {"client_cpu_s", client_cpu_s},
      {"client_wall_s", client_wall_s},
      {"client_cpu_utilization", client_wall_s > 0 ? client_cpu_s / client_wall_s : 0.0},
      {"paths_answered", body_digest.size()},
      {"digest", digest()},
      {"inconsistent_paths", inconsistent_paths},
  };
  if (with_bodies) j["body_digest"] = body_digest;
  return j;
}

}  // namespace perfgate::load
