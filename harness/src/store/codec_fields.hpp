// How the results codec (results_codec.cpp, scenario_codec.cpp) reads a field it did not
// write itself: leniently, since store/results_shape.hpp has already named every field of the
// wrong type, and a field a reader does not need may be missing from an older file.
#pragma once

#include <array>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "model/results_model.hpp"

namespace perfgate::store::codec {

using json = nlohmann::json;

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A string field, or `fallback` when it is missing or not a string (older files wrote some as null).
inline std::string text(const json& j, const char* key, const char* fallback) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : fallback;
}

// A kind written by its name (perfgate/enum_names.hpp): none when missing or not a name of E
// (results_shape has refused an unknown name in a file already).
template <typename E>
std::optional<E> named(const json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? from_name<E>(j[key].get<std::string>()) : std::nullopt;
}
template <typename E>
E named(const json& j, const char* key, E fallback) {
  return named<E>(j, key).value_or(fallback);
}

// What is not finite is written as null, and null reads back as NaN.
inline json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
inline double number_or_nan(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : kNaN;
}

// [lo, hi], an end that is null (not finite when written) read as NaN.
inline std::array<double, 2> interval_of(const json& j, const char* key) {
  const json ci = j.value(key, json::array());
  auto end = [&](std::size_t i) { return ci.size() == 2 && ci[i].is_number() ? ci[i].get<double>() : kNaN; };
  return {end(0), end(1)};
}

// The keys a typed section owns taken out; everything else of the object goes to `other`.
inline json without(const json& j, std::initializer_list<const char*> keys) {
  json out = j;
  for (const char* k : keys) out.erase(k);
  return out;
}

// The elements of an array of type T (numbers, strings); others are skipped.
template <typename T>
std::vector<T> list_of(const json& j) {
  std::vector<T> out;
  for (const auto& x : j.is_array() ? j : json::array()) {
    if constexpr (std::is_same_v<T, std::string>) {
      if (x.is_string()) out.push_back(x.get<std::string>());
    } else if (x.is_number()) {
      out.push_back(x.get<T>());
    }
  }
  return out;
}

// run.shard and a merged scenario's shard, run.against, run.batch, run.bisect and run.lock
// (run_sections_codec.cpp); a reader's none: the key is missing or not an object.
json to_json(const std::optional<model::Shard>& shard);
std::optional<model::Shard> shard_from_json(const json& j);
json to_json(const model::AgainstBuild& against);
std::optional<model::AgainstBuild> against_from_json(const json& j);
json to_json(const model::LockWait& lock);
std::optional<model::LockWait> lock_from_json(const json& j);
json to_json(const model::BatchRun& batch);
std::optional<model::BatchRun> batch_from_json(const json& j);
json to_json(const model::BisectStep& step);
std::optional<model::BisectStep> bisect_step_from_json(const json& j);

}  // namespace perfgate::store::codec
