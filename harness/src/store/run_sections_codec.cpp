// run.shard, run.against, run.batch, run.bisect and run.lock (model/run_sections.hpp) as the
// results file spells them; a field a section lacked is not written back.
#include "store/codec_fields.hpp"

namespace perfgate::store {

using json = nlohmann::json;

namespace {

std::optional<std::string> optional_text(const json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? std::optional(j[key].get<std::string>()) : std::nullopt;
}
std::optional<int> optional_int(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number_integer() ? std::optional(j[key].get<int>()) : std::nullopt;
}

}  // namespace

json codec::to_json(const std::optional<model::Shard>& s) {
  if (!s) return nullptr;
  return {{"index", s->index}, {"count", s->count}, {"scenarios", s->scenarios}, {"of", s->of}};
}

std::optional<model::Shard> codec::shard_from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return model::Shard{j.value("index", 0), j.value("count", 0), j.value("of", 0),
                      list_of<std::string>(j.value("scenarios", json::array()))};
}

json codec::to_json(const model::AgainstBuild& a) {
  json j = {{"dir", a.dir}, {"catalog", a.catalog}};
  if (a.commit) j["git"] = {{"commit", *a.commit}};
  if (a.meaning) j["meaning"] = *a.meaning;
  return j;
}

std::optional<model::AgainstBuild> codec::against_from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  const json git = j.value("git", json::object());
  return model::AgainstBuild{text(j, "dir", ""), text(j, "catalog", ""),
                             git.is_object() ? optional_text(git, "commit") : std::nullopt,
                             optional_text(j, "meaning")};
}

json codec::to_json(const model::LockWait& l) {
  json j = {{"file", l.file}, {"waited_s", l.waited_s}, {"acquired_unix", l.acquired_unix}};
  if (l.waited_for) j["waited_for"] = *l.waited_for;
  return j;
}

std::optional<model::LockWait> codec::lock_from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return model::LockWait{text(j, "file", ""), j.value("waited_s", 0.0), j.value("acquired_unix", 0.0),
                         optional_text(j, "waited_for")};
}

json codec::to_json(const model::BatchRun& b) {
  json j = {{"plan", b.plan}, {"prebuilt", b.prebuilt}};
  if (b.catalog) j["catalog"] = *b.catalog;
  if (b.steps) j["steps"] = *b.steps;
  if (b.lock) j["lock"] = to_json(*b.lock);
  if (b.load_before) j["load_before"] = *b.load_before;
  return j;
}

std::optional<model::BatchRun> codec::batch_from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  model::BatchRun b{.plan = text(j, "plan", ""),
                    .prebuilt = text(j, "prebuilt", ""),
                    .catalog = optional_text(j, "catalog"),
                    .steps = optional_int(j, "steps")};
  b.lock = lock_from_json(j.value("lock", json(nullptr)));
  if (j.contains("load_before") && j["load_before"].is_array()) b.load_before = list_of<double>(j["load_before"]);
  return b;
}

json codec::to_json(const model::BisectStep& s) {
  json j = {{"good", s.good}, {"tested", s.tested}};
  if (s.batch) j["batch"] = *s.batch;
  return j;
}

std::optional<model::BisectStep> codec::bisect_step_from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return model::BisectStep{text(j, "good", ""), text(j, "tested", ""), optional_int(j, "batch")};
}

}  // namespace perfgate::store
