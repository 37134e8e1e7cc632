#include "gate/equivalence.hpp"

#include <fstream>

namespace perfgate::gate {

EquivalenceGate::EquivalenceGate(std::map<std::string, std::string> keys, fs::path keep_dir)
    : keys_(std::move(keys)), keep_dir_(std::move(keep_dir)) {}

std::optional<std::string> first_difference(const fs::path& a, const fs::path& b, const std::string& a_name,
                                            const std::string& b_name) {
  std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
  if (!fa || !fb) return std::nullopt;
  std::string la, lb;
  for (long line = 1;; ++line) {
    bool ga = static_cast<bool>(std::getline(fa, la)), gb = static_cast<bool>(std::getline(fb, lb));
    if (!ga && !gb) return std::nullopt;
    if (ga != gb || la != lb) {
      auto show = [](bool got, const std::string& s) {
        return got ? "'" + (s.size() > 200 ? s.substr(0, 200) + "..." : s) + "'" : std::string("(end of output)");
      };
      return "first differing line " + std::to_string(line) + ": " + a_name + " " + show(ga, la) + ", " + b_name + " " +
             show(gb, lb);
    }
  }
}

void EquivalenceGate::check(const run::Sample& s, const run::SampleFiles& files) {
  if (!s.divergence.empty()) {
    failure_ = "equivalence gate failed: " + s.variant + " (round " + std::to_string(s.round) +
               ") reported not equivalent: " + s.divergence;
    throw EquivalenceFailure(*failure_);
  }
  auto k = keys_.find(s.variant);
  const std::string key = k == keys_.end() ? "" : k->second;
  std::string value;
  if (key.empty()) {
    value = s.digest;
    // An ab sample timed with its output on /dev/null: a digest run of its round, if it had
    // one, is what is compared (run/ab_sampling.hpp).
    if (value.empty()) return;
  } else {
    if (!s.extra.contains(key))
      throw EquivalenceFailure("variant " + s.variant + " did not report extra." + key + ", its equivalence value");
    value = s.extra[key].dump();
  }
  // Digest-compared variants also report the extra fields that sweep variants are compared on.
  std::vector<std::pair<std::string, std::string>> checks = {{key.empty() ? "digest" : "extra." + key, value}};
  if (key.empty())
    for (const auto& [variant, field] : keys_)
      if (!field.empty() && s.extra.contains(field)) checks.push_back({"extra." + field, s.extra[field].dump()});

  for (const auto& [ckey, cvalue] : checks) {
    auto it = refs_.find(ckey);
    if (it == refs_.end()) {
      Reference ref{cvalue, s.variant, s.round, std::nullopt};
      if (fs::exists(files.output_path)) {
        fs::path kept = keep_dir_ / ("reference-" + std::to_string(refs_.size()) + ".out");
        fs::copy_file(files.output_path, kept, fs::copy_options::overwrite_existing);
        ref.output = kept;
      }
      refs_.emplace(ckey, ref);
      continue;
    }
    ++compared_;
    if (it->second.value == cvalue) continue;
    const Reference& ref = it->second;
    std::string msg = "equivalence gate failed: " + s.variant + " (round " + std::to_string(s.round) + ") " + ckey +
                      " " + cvalue + " differs from " + ref.variant + " (round " + std::to_string(ref.round) + ") " +
                      ref.value;
    if (ref.output && fs::exists(files.output_path))
      if (auto d = first_difference(*ref.output, files.output_path, ref.variant, s.variant)) msg += "; " + *d;
    failure_ = msg;
    throw EquivalenceFailure(msg);
  }
}

model::GateResult EquivalenceGate::result() const {
  // Nothing finished to set beside a first sample (every one timed out or the run broke):
  // that says nothing about the work, so it is no pass.
  if (!failure_ && compared_ == 0)
    return {model::GateKind::Equivalence, "same work", std::nullopt,
            refs_.empty() ? "not compared: no sample finished" : "not compared: no sample finished beside the first"};
  std::string detail =
      failure_ ? *failure_
               : std::to_string(compared_) + " samples compared with the first, all equal" +
                     (refs_.count("digest") ? " (digest " + refs_.at("digest").value.substr(0, 16) + ")" : "");
  return {model::GateKind::Equivalence, "same work", !failure_.has_value(), detail};
}

model::GateResult ResponseGate::result() const {
  const auto& failure = book_.failure();
  if (!failure && book_.compared() == 0)
    return {model::GateKind::Equivalence, "same responses", std::nullopt,
            "not compared: no answer beside a first one; " + book_.summary()};
  return {model::GateKind::Equivalence, "same responses", !failure.has_value(), failure ? *failure : book_.summary()};
}

}  // namespace perfgate::gate
