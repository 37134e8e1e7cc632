// RequestSet: which path the k-th request asks for.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "load/http_load.hpp"

namespace perfgate::load {

namespace {

// SplitMix64: a counter-based generator, so pick(seed, k) needs no state.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A uniform double in [0, 1) from 53 random bits.
double unit(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

std::string path_of(std::string s) {
  // "http://host:port/path" -> "/path"
  if (auto scheme = s.find("://"); scheme != std::string::npos) {
    auto slash = s.find('/', scheme + 3);
    s = slash == std::string::npos ? "/" : s.substr(slash);
  }
  if (s.empty() || s.front() != '/') throw std::invalid_argument("request path '" + s + "' does not start with '/'");
  return s;
}

std::string fmt(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

}  // namespace

RequestSet RequestSet::from_paths(std::vector<std::string> paths) {
  if (paths.empty()) throw std::invalid_argument("a request set needs at least one path");
  RequestSet s;
  for (auto& p : paths) s.paths.push_back(path_of(std::move(p)));
  s.build();
  return s;
}

RequestSet RequestSet::from_url_file(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read the URL list '" + file + "'");
  RequestSet s;
  bool weighted = false;
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    std::istringstream fields(line);
    std::string path;
    if (!(fields >> path) || path.front() == '#') continue;
    double w = 1.0;
    if (std::string ws; fields >> ws) {
      try {
        std::size_t used = 0;
        w = std::stod(ws, &used);
        if (used != ws.size() || !(w >= 0) || !std::isfinite(w)) throw std::invalid_argument(ws);
      } catch (const std::exception&) {
        throw std::invalid_argument(file + ":" + std::to_string(n) + ": weight '" + ws +
                                    "' is not a non-negative number");
      }
      weighted = true;
    }
    s.paths.push_back(path_of(path));
    s.weights.push_back(w);
  }
  if (s.paths.empty()) throw std::invalid_argument("the URL list '" + file + "' holds no paths");
  if (weighted) {
    s.mix = Mix::Weighted;
    s.label = "weighted";
  } else {
    s.weights.clear();
  }
  s.build();
  return s;
}

RequestSet RequestSet::from_workload(const nlohmann::json& w, const std::string& dir) {
  if (!w.is_object() || !w.contains("urls"))
    throw std::invalid_argument("a workload needs \"urls\" (a URL list relative to the fixture): " + w.dump());
  const std::string file = w.at("urls").get<std::string>();
  RequestSet base = from_url_file(file.empty() || file.front() == '/' ? file : dir + "/" + file);
  const std::string mix = w.value("mix", "uniform");
  if (mix == "file") return base;
  if (mix == "uniform") return base.uniform();
  if (mix == "cycle") return base.cycle();
  if (mix == "hot") return base.hot(w.value("hot_count", std::size_t{50}), w.value("hot_fraction", 0.8));
  if (mix == "zipf") return base.zipf(w.value("zipf_s", 1.0));
  throw std::invalid_argument("unknown workload mix '" + mix + "': expected uniform, hot, zipf, cycle or file");
}

RequestSet RequestSet::uniform() const {
  RequestSet s = from_paths(paths);
  return s;
}

RequestSet RequestSet::cycle() const {
  RequestSet s = from_paths(paths);
  s.mix = Mix::Cycle;
  s.label = "cycle";
  return s;
}

RequestSet RequestSet::hot(std::size_t hot_count, double hot_fraction) const {
  const std::size_t n = paths.size();
  if (hot_count == 0 || hot_count > n)
    throw std::invalid_argument("hot_count " + std::to_string(hot_count) + " must be in 1.." + std::to_string(n));
  if (!(hot_fraction >= 0 && hot_fraction <= 1)) throw std::invalid_argument("hot_fraction must be in [0, 1]");
  if (hot_count == n && hot_fraction < 1)
    throw std::invalid_argument("hot_count covers every path: nothing is left for the other " + fmt(1 - hot_fraction));
  RequestSet s = from_paths(paths);
  s.mix = Mix::Weighted;
  s.weights.assign(n, hot_count == n ? 0.0 : (1.0 - hot_fraction) / static_cast<double>(n - hot_count));
  std::fill_n(s.weights.begin(), hot_count, hot_fraction / static_cast<double>(hot_count));
  s.label = "hot(" + std::to_string(hot_count) + "," + fmt(hot_fraction) + ")";
  s.build();
  return s;
}

RequestSet RequestSet::zipf(double exponent) const {
  if (!(exponent >= 0) || !std::isfinite(exponent)) throw std::invalid_argument("zipf_s must be a finite number >= 0");
  RequestSet s = from_paths(paths);
  s.mix = Mix::Weighted;
  s.weights.resize(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) s.weights[i] = std::pow(static_cast<double>(i + 1), -exponent);
  s.label = "zipf(" + fmt(exponent) + ")";
  s.build();
  return s;
}

void RequestSet::build() {
  cdf_.clear();
  if (paths.empty()) throw std::invalid_argument("a request set needs at least one path");
  if (mix != Mix::Weighted) return;
  if (weights.size() != paths.size())
    throw std::invalid_argument("a weighted request set needs one weight per path (" + std::to_string(weights.size()) +
                                " weights, " + std::to_string(paths.size()) + " paths)");
  double total = 0;
  cdf_.reserve(weights.size());
  for (double w : weights) {
    if (!(w >= 0) || !std::isfinite(w)) throw std::invalid_argument("request weights must be finite and >= 0");
    total += w;
    cdf_.push_back(total);
  }
  if (!(total > 0)) throw std::invalid_argument("request weights sum to 0");
  for (double& c : cdf_) c /= total;
  cdf_.back() = 1.0;
}

std::size_t RequestSet::pick(std::uint64_t seed, std::uint64_t k) const {
  const std::size_t n = paths.size();
  switch (mix) {
    case Mix::Cycle:
      return static_cast<std::size_t>(k % n);
    case Mix::Uniform:
      // Multiply-shift: unbiased enough for n << 2^32 and free of modulo bias patterns.
      return static_cast<std::size_t>(
          (static_cast<unsigned __int128>(splitmix64(seed * 0x100000001b3ULL ^ splitmix64(k))) * n) >> 64);
    case Mix::Weighted: {
      if (cdf_.size() != n) throw std::logic_error("RequestSet: weights changed without build(); use the factories");
      const double u = unit(splitmix64(seed * 0x100000001b3ULL ^ splitmix64(k)));
      auto it = std::upper_bound(cdf_.begin(), cdf_.end(), u);
      return std::min(static_cast<std::size_t>(it - cdf_.begin()), n - 1);
    }
  }
  return 0;
}

double RequestSet::probability(std::size_t i) const {
  if (i >= paths.size()) return 0;
  if (mix != Mix::Weighted) return 1.0 / static_cast<double>(paths.size());
  return cdf_[i] - (i == 0 ? 0.0 : cdf_[i - 1]);
}

}  // namespace perfgate::load
