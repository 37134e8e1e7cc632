// The order of variants inside each round: a fresh random permutation per round from one
// seeded generator, so drift on the machine falls on every variant alike and a run can be
// replayed with --seed.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace perfgate::run {

class RoundOrder {
 public:
  explicit RoundOrder(std::uint64_t seed) : rng_(seed) {}
  std::vector<std::string> next(std::vector<std::string> variants);
  // Like next(), then `b` moved right beside `a` (on a random side): the gated pair runs back
  // to back in every round, so drift during a long round of sweep variants cannot fall
  // between them.
  std::vector<std::string> next_adjacent(std::vector<std::string> variants, const std::string& a, const std::string& b);

 private:
  std::mt19937_64 rng_;
};

// Duet rounds: the CPU of BEFORE and of AFTER in `round` — cpus[0] and cpus[1], swapped on
// every other round so neither side keeps the CPU that takes the system's interrupts. Throws
// std::invalid_argument when fewer than two CPUs are given.
std::pair<int, int> duet_cpus(int round, const std::vector<int>& cpus);

}  // namespace perfgate::run
