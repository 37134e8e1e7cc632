#include "gate/equivalence.hpp"

#include <fstream>

#include "gate/first_difference.hpp"

namespace perfgate::gate {

EquivalenceGate::EquivalenceGate(std::map<std::string, std::string> keys, fs::path keep_dir,
                                 std::vector<std::string> check_argv)
    : keys_(std::move(keys)), keep_dir_(std::move(keep_dir)), check_argv_(std::move(check_argv)) {}

void EquivalenceGate::check(const run::Sample& s, const run::SampleFiles& files) {
  if (!s.divergence.empty()) {
    failure_ = "equivalence gate failed: " + s.variant + " (round " + std::to_string(s.round) +
               ") reported not equivalent: " + s.divergence;
    throw EquivalenceFailure(*failure_);
  }
  if (s.extra.contains("masked") && s.extra["masked"].is_object())
    for (const auto& [pattern, n] : s.extra["masked"].items()) masked_[pattern][s.variant] += n.get<long>();
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
      Reference ref{cvalue, s.variant, s.round, std::nullopt, std::nullopt};
      if (fs::exists(files.output_path)) {
        fs::path kept = keep_dir_ / ("reference-" + std::to_string(refs_.size()) + ".out");
        fs::copy_file(files.output_path, kept, fs::copy_options::overwrite_existing);
        ref.output = ref.raw = kept;
      }
      if (!check_argv_.empty() && !files.raw_path.empty() && files.raw_path != files.output_path &&
          fs::exists(files.raw_path)) {
        fs::path kept = keep_dir_ / ("reference-" + std::to_string(refs_.size()) + ".raw");
        fs::copy_file(files.raw_path, kept, fs::copy_options::overwrite_existing);
        ref.raw = kept;
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
    // BEFORE is named first whichever side a round ran first, so the message reads the same run to run.
    const bool before_first = s.variant == "before" && ref.variant != "before";
    if (ref.output && fs::exists(files.output_path))
      if (auto d = before_first ? first_difference(files.output_path, *ref.output, s.variant, ref.variant)
                                : first_difference(*ref.output, files.output_path, ref.variant, s.variant))
        msg += "; " + *d;
    if (!check_argv_.empty() && ckey == "digest" && accepted_by_check(ref, cvalue, files, msg)) continue;
    failure_ = msg;
    throw EquivalenceFailure(msg);
  }
}

bool EquivalenceGate::accepted_by_check(const Reference& ref, const std::string& value, const run::SampleFiles& files,
                                        std::string& msg) {
  const auto pair = std::make_pair(ref.value, value);
  auto it = checked_.find(pair);
  if (it == checked_.end()) {
    const fs::path other = files.raw_path.empty() ? files.output_path : files.raw_path;
    if (!ref.raw || !fs::exists(other)) {
      msg += "; --check not run: an output is missing";
      return false;
    }
    it = checked_.emplace(pair, run::check_outputs(check_argv_, *ref.raw, other, keep_dir_)).first;
  }
  if (it->second.same) {
    ++accepted_;
    return true;
  }
  msg += "; --check said they differ (" + it->second.how + ")";
  return false;
}

std::string EquivalenceGate::masks_summary() const {
  std::string s;
  for (const auto& [pattern, by_variant] : masked_) {
    long total = 0;
    std::string parts;
    for (const auto& [variant, n] : by_variant) {
      total += n;
      parts += (parts.empty() ? "" : ", ") + variant + " " + std::to_string(n);
    }
    s += std::string(s.empty() ? "" : "; ") + "masked '" + pattern + "' " + std::to_string(total) + " times (" + parts +
         ")";
  }
  if (!checked_.empty()) {
    int same = 0;
    for (const auto& [pair, verdict] : checked_) same += verdict.same ? 1 : 0;
    s += std::string(s.empty() ? "" : "; ") + "--check judged " + std::to_string(checked_.size()) +
         " distinct pair(s) of digests, " + std::to_string(same) + " the same work (" + std::to_string(accepted_) +
         " sample(s) accepted by it)";
  }
  return s;
}

std::vector<std::string> EquivalenceGate::warnings() const {
  std::vector<std::string> out;
  for (const auto& [pattern, by_variant] : masked_) {
    long total = 0;
    for (const auto& [variant, n] : by_variant) total += n;
    if (total == 0) out.push_back("--mask '" + pattern + "' matched nothing in any output: check the pattern");
  }
  return out;
}

model::GateResult EquivalenceGate::result() const {
  // Nothing finished to set beside a first sample (every one timed out or the run broke):
  // that says nothing about the work, so it is no pass.
  if (!failure_ && compared_ == 0)
    return {model::GateKind::Equivalence, "same work", model::GateOutcome::Undecided,
            refs_.empty() ? "not compared: no sample finished" : "not compared: no sample finished beside the first"};
  std::string detail =
      failure_ ? *failure_
               : std::to_string(compared_) + " samples compared with the first, all equal" +
                     (accepted_ ? " or judged the same work by --check" : "") +
                     (refs_.count("digest") ? " (digest " + refs_.at("digest").value.substr(0, 16) + ")" : "");
  if (const std::string masks = masks_summary(); !masks.empty()) detail += "; " + masks;
  return {model::GateKind::Equivalence, "same work", model::passed_if(!failure_), detail};
}

model::GateResult ResponseGate::result() const {
  const auto& failure = book_.failure();
  if (!failure && book_.compared() == 0)
    return {model::GateKind::Equivalence, "same responses", model::GateOutcome::Undecided,
            "not compared: no answer beside a first one; " + book_.summary()};
  return {model::GateKind::Equivalence, "same responses", model::passed_if(!failure),
          failure ? *failure : book_.summary()};
}

}  // namespace perfgate::gate
