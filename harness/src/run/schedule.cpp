#include "run/schedule.hpp"

#include <algorithm>
#include <stdexcept>

namespace perfgate::run {

std::vector<std::string> RoundOrder::next(std::vector<std::string> variants) {
  // Fisher–Yates by hand: std::shuffle's algorithm is unspecified, and a seed must replay the
  // same order with any standard library.
  for (std::size_t i = variants.size(); i > 1; --i) {
    std::size_t j = static_cast<std::size_t>(rng_() % i);
    std::swap(variants[i - 1], variants[j]);
  }
  return variants;
}

std::vector<std::string> RoundOrder::next_adjacent(std::vector<std::string> variants, const std::string& a,
                                                   const std::string& b) {
  variants = next(std::move(variants));
  auto ib = std::find(variants.begin(), variants.end(), b);
  if (ib == variants.end() || std::find(variants.begin(), variants.end(), a) == variants.end()) return variants;
  variants.erase(ib);
  auto ia = std::find(variants.begin(), variants.end(), a);
  variants.insert(rng_() % 2 ? ia + 1 : ia, b);
  return variants;
}

std::pair<int, int> duet_cpus(int round, const std::vector<int>& cpus) {
  if (cpus.size() < 2) throw std::invalid_argument("duet needs two CPUs");
  return round % 2 ? std::pair{cpus[0], cpus[1]} : std::pair{cpus[1], cpus[0]};
}

}  // namespace perfgate::run
