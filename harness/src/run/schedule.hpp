// The order of variants inside each round: a fresh random permutation per round from one
// seeded generator, so drift on the machine falls on every variant alike and a run can be
// replayed with --seed.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace perfgate::run {

class RoundOrder {
 public:
  explicit RoundOrder(std::uint64_t seed) : rng_(seed) {}
  std::vector<std::string> next(std::vector<std::string> variants);

 private:
  std::mt19937_64 rng_;
};

}  // namespace perfgate::run
