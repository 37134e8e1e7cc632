#include "gate/layout_caveat.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <system_error>

namespace perfgate::gate {

namespace {

bool same_bytes(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code ec;
  if (std::filesystem::file_size(a, ec) != std::filesystem::file_size(b, ec) || ec) return false;
  std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
  std::array<char, 1 << 16> ba{}, bb{};
  while (fa && fb) {
    fa.read(ba.data(), ba.size());
    fb.read(bb.data(), bb.size());
    if (fa.gcount() != fb.gcount() || !std::equal(ba.begin(), ba.begin() + fa.gcount(), bb.begin())) return false;
  }
  return fa.eof() && fb.eof();
}

bool is_time(const std::string& unit) { return unit == "s" || unit == "ms" || unit == "us" || unit == "ns"; }

}  // namespace

std::optional<std::string> layout_caveat(const std::filesystem::path& before_program,
                                         const std::filesystem::path& after_program,
                                         const std::vector<model::Comparison>& comparisons,
                                         const std::optional<model::LayoutSpread>& spread) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(before_program, ec) || !std::filesystem::is_regular_file(after_program, ec))
    return std::nullopt;
  if (std::filesystem::equivalent(before_program, after_program, ec) || same_bytes(before_program, after_program))
    return std::nullopt;
  const auto changed = std::find_if(comparisons.begin(), comparisons.end(), [](const model::Comparison& c) {
    return c.gated && is_time(c.unit) && (c.verdict == stats::Verdict::Better || c.verdict == stats::Verdict::Worse);
  });
  if (changed == comparisons.end()) return std::nullopt;
  std::string text = "warning: BEFORE and AFTER are different executables (" + before_program.string() + ", " +
                     after_program.string() +
                     "): a time verdict between them includes where the linker placed their code, which alone moves "
                     "a tight loop's speed; ";
  if (!spread)
    return text +
           "build each side in several layouts (ab --layouts K, or ab --rev-before/--rev-after --layouts K; "
           "docs/layout.md) to tell the change from its layout, or measure how far layout moves this program here "
           "(perfgate calibrate --layouts 8 --build CMD -- COMMAND)";
  char figures[96];
  std::snprintf(figures, sizeof figures, "±%.1f%%", 100 * spread->spread);
  text += "layout alone moves " + spread->program + " " + figures + " on this machine (perfgate calibrate --layouts " +
          std::to_string(spread->layouts) + ", " + spread->measured_at + "): a single-layout change under ";
  std::snprintf(figures, sizeof figures, "%.1f%% may be layout alone, and this one (%+.1f%%) is ",
                100 * spread->trusted_change, 100 * (changed->r.ratio - 1));
  const bool beyond = std::abs(changed->r.ratio - 1) >= spread->trusted_change;
  return text + figures + (beyond ? "beyond it" : "within it: build both sides in layouts (ab --layouts K)");
}

}  // namespace perfgate::gate
