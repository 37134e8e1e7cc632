#include "common/json_fields.hpp"

#include <algorithm>
#include <cmath>

#include "common/errors.hpp"

namespace perfgate {

using json = nlohmann::json;

namespace {

std::string joined(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

bool is_kind(const json& v, unsigned kinds) {
  return ((kinds & kString) && v.is_string()) || ((kinds & kNumber) && v.is_number()) ||
         ((kinds & kInteger) && v.is_number_integer()) || ((kinds & kBool) && v.is_boolean()) ||
         ((kinds & kObject) && v.is_object()) || ((kinds & kArray) && v.is_array()) || ((kinds & kNull) && v.is_null());
}

std::string kinds_text(unsigned kinds) {
  static const std::pair<unsigned, const char*> names[] = {
      {kString, "a string"},  {kNumber, "a number"}, {kInteger, "an integer"}, {kBool, "a boolean"},
      {kObject, "an object"}, {kArray, "an array"},  {kNull, "null"}};
  std::vector<std::string> out;
  for (const auto& [k, name] : names)
    if (kinds & k) out.push_back(name);
  return joined(out, " or ");
}

bool all_strings(const json& a) {
  return a.is_array() && std::all_of(a.begin(), a.end(), [](const json& s) { return s.is_string(); });
}

bool within(double x, Sign sign) { return sign == Sign::kAny || (sign == Sign::kNonNegative ? x >= 0 : x > 0); }

std::string number_text(Sign sign) {
  return sign == Sign::kAny ? "a number" : sign == Sign::kNonNegative ? "a number >= 0" : "a number > 0";
}

bool is_finite_number(const json& v) { return v.is_number() && std::isfinite(v.get<double>()); }

// JSON keeps a non-negative integer unsigned and a negative one signed: compare each as itself.
bool at_least(const json& v, long long min) {
  return v.is_number_unsigned() ? min <= 0 || v.get<unsigned long long>() >= static_cast<unsigned long long>(min)
                                : v.get<long long>() >= min;
}
bool at_most(const json& v, unsigned long long max) {
  return v.is_number_unsigned() ? v.get<unsigned long long>() <= max
                                : v.get<long long>() < 0 || static_cast<unsigned long long>(v.get<long long>()) <= max;
}

}  // namespace

json parse_document(const std::string& text, const std::string& file, const std::string& about) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // a syntax error, or a number too large for a double
    // Without the library's "[json.exception.parse_error.101]": the message is for a person.
    const std::string what = e.what();
    const auto tag_end = what.find("] ");
    throw UsageError(file + ": not valid JSON (" + about +
                     "): " + what.substr(tag_end == std::string::npos ? 0 : tag_end + 2));
  }
}

FieldReader::FieldReader(const json& object, std::string file, std::string path)
    : object_(object), file_(std::move(file)), path_(std::move(path)) {
  if (!object_.is_object()) fail("must be an object");
}

std::string FieldReader::path_of(const std::string& field) const {
  if (path_.empty()) return field.empty() ? "(top level)" : field;
  return field.empty() ? path_ : path_ + "." + field;
}

void FieldReader::fail(const std::string& field, const std::string& problem) const {
  throw UsageError(file_ + ": " + path_of(field) + ": " + problem);
}

void FieldReader::fail(const std::string& problem) const { fail("", problem); }

bool FieldReader::has(const std::string& key) const { return object_.contains(key) && !object_.at(key).is_null(); }

const json& FieldReader::required(const std::string& key, const std::string& what) const {
  if (!has(key)) fail(key, "missing (" + what + ")");
  return object_.at(key);
}

std::vector<std::string> FieldReader::keys() const {
  std::vector<std::string> out;
  for (const auto& [key, _] : object_.items()) out.push_back(key);
  return out;
}

void FieldReader::allow_only(const std::vector<std::string>& known) const {
  for (const auto& [key, _] : object_.items())
    if (std::find(known.begin(), known.end(), key) == known.end())
      fail(key, "unknown key (known: " + joined(known, ", ") + ")");
}

const json& FieldReader::value_of(const std::string& key, const std::string& what,
                                  const std::function<bool(const json&)>& ok) const {
  const json& v = required(key, what);
  if (!ok(v)) fail(key, "must be " + what);
  return v;
}

std::string FieldReader::string(const std::string& key) const {
  return value_of(key, "a string", [](const json& v) { return v.is_string(); }).get<std::string>();
}

std::string FieldReader::string(const std::string& key, const std::string& fallback) const {
  return has(key) ? string(key) : fallback;
}

std::string FieldReader::non_empty_string(const std::string& key) const {
  return value_of(key, "a non-empty string",
                  [](const json& v) { return v.is_string() && !v.get_ref<const std::string&>().empty(); })
      .get<std::string>();
}

std::string FieldReader::non_empty_string(const std::string& key, const std::string& fallback) const {
  return has(key) ? non_empty_string(key) : fallback;
}

std::string FieldReader::one_of(const std::string& key, const std::vector<std::string>& allowed) const {
  const std::string list = joined(allowed, ", ");
  const auto value = value_of(key, "one of " + list, [](const json& v) { return v.is_string(); }).get<std::string>();
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
    fail(key, "'" + value + "' is not one of " + list);
  return value;
}

std::string FieldReader::one_of(const std::string& key, const std::vector<std::string>& allowed,
                                const std::string& fallback) const {
  return has(key) ? one_of(key, allowed) : fallback;
}

std::vector<std::string> FieldReader::strings(const std::string& key, const std::string& noun) const {
  if (!has(key)) return {};
  return value_of(key, "an array of " + noun, all_strings).get<std::vector<std::string>>();
}

std::vector<std::string> FieldReader::non_empty_strings(const std::string& key, const std::string& noun) const {
  return value_of(key, "a non-empty array of " + noun, [](const json& a) { return all_strings(a) && !a.empty(); })
      .get<std::vector<std::string>>();
}

std::optional<bool> FieldReader::optional_boolean(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return value_of(key, "true or false", [](const json& v) { return v.is_boolean(); }).get<bool>();
}

double FieldReader::number(const std::string& key, Sign sign) const {
  return value_of(key, number_text(sign),
                  [sign](const json& v) { return is_finite_number(v) && within(v.get<double>(), sign); })
      .get<double>();
}

std::optional<double> FieldReader::optional_number(const std::string& key, Sign sign) const {
  return has(key) ? std::optional<double>(number(key, sign)) : std::nullopt;
}

const json& FieldReader::integer_value(const std::string& key, long long min, unsigned long long max) const {
  const json& v = value_of(key, "an integer >= " + std::to_string(min),
                           [min](const json& x) { return x.is_number_integer() && at_least(x, min); });
  if (!at_most(v, max)) fail(key, "must be an integer from " + std::to_string(min) + " to " + std::to_string(max));
  return v;
}

std::array<double, 2> FieldReader::interval(const std::string& key, Sign sign) const {
  const json& v = value_of(key, "[lo, hi], two numbers", [](const json& a) {
    return a.is_array() && a.size() == 2 && is_finite_number(a[0]) && is_finite_number(a[1]);
  });
  const std::array<double, 2> out{v[0].get<double>(), v[1].get<double>()};
  if (out[0] > out[1] || !within(out[0], sign))
    fail(key, std::string("must be [lo, hi] with ") +
                  (sign == Sign::kAny           ? ""
                   : sign == Sign::kNonNegative ? "0 <= "
                                                : "0 < ") +
                  "lo <= hi");
  return out;
}

const json& FieldReader::array(const std::string& key) const {
  return value_of(key, "an array", [](const json& v) { return v.is_array(); });
}

const json& FieldReader::optional_array(const std::string& key) const {
  static const json empty = json::array();
  return has(key) ? array(key) : empty;
}

const json& FieldReader::non_empty_array(const std::string& key, const std::string& noun) const {
  return value_of(key, "a non-empty array of " + noun, [](const json& v) { return v.is_array() && !v.empty(); });
}

FieldReader FieldReader::child(const std::string& key) const {
  return FieldReader(value_of(key, "an object", [](const json& v) { return v.is_object(); }), file_, path_of(key));
}

FieldReader FieldReader::optional_child(const std::string& key) const {
  static const json empty = json::object();
  return has(key) ? child(key) : FieldReader(empty, file_, path_of(key));
}

std::vector<FieldReader> FieldReader::elements(const std::string& key) const {
  std::vector<FieldReader> out;
  const json& a = optional_array(key);
  for (std::size_t i = 0; i < a.size(); ++i) out.emplace_back(a[i], file_, path_of(index(key, i)));
  return out;
}

void FieldReader::kinds(std::initializer_list<KindRule> rules) const {
  for (const KindRule& rule : rules) {
    if (object_.contains(rule.key))
      kind_at(rule.key, object_.at(rule.key), rule.kinds);
    else if (rule.required)
      fail(rule.key, "missing (" + kinds_text(rule.kinds) + ")");
  }
}

void FieldReader::kind_at(const std::string& field, const json& value, unsigned kinds) const {
  if (!is_kind(value, kinds))
    fail(field, "not " + kinds_text(kinds) + " (it is " + std::string(value.type_name()) + ")");
}

}  // namespace perfgate
