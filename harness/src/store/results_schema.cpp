#include "store/results_schema.hpp"

#include <utility>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>
#include <vector>

namespace perfgate::store {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

namespace {

// The schema twice: valijson's compiled form, and the text in the file's order, which is the
// order problems are named in (nlohmann::json would sort the keys).
struct Compiled {
  json plain = json::parse(results_schema_text());
  ordered_json text = ordered_json::parse(results_schema_text());
  valijson::Schema schema;
  Compiled() {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);  // the keywords the file uses mean the same
    valijson::adapters::NlohmannJsonAdapter adapter(plain);
    parser.populateSchema(adapter, schema);
  }
};

const Compiled& compiled() {
  static const Compiled c;
  return c;
}

// One step of a path: an array's index or an object's key.
struct Step {
  std::optional<std::size_t> index;
  std::string key;
};
using Path = std::vector<Step>;
using Order = std::vector<std::pair<std::size_t, std::string>>;

std::string text_of(const Path& path) {
  std::string out;
  for (const Step& s : path) out += s.index ? "[" + std::to_string(*s.index) + "]" : (out.empty() ? "" : ".") + s.key;
  return out.empty() ? "(document)" : out;
}

// valijson names a step "[key]" or "[3]" after "<root>"; the document says which it is.
Path path_of(const std::vector<std::string>& context, const json& doc) {
  Path out;
  const json* at = &doc;
  for (std::size_t i = 1; i < context.size(); ++i) {
    const std::string part = context[i].substr(1, context[i].size() - 2);
    if (at && at->is_array()) {
      const std::size_t k = std::stoul(part);
      out.push_back({k, ""});
      at = k < at->size() ? &(*at)[k] : nullptr;
    } else {
      out.push_back({std::nullopt, part});
      at = at && at->is_object() && at->contains(part) ? &(*at)[part] : nullptr;
    }
  }
  return out;
}

const json* value_at(const json& doc, const Path& path) {
  const json* at = &doc;
  for (const Step& s : path) {
    if (s.index ? !at->is_array() || *s.index >= at->size() : !at->is_object() || !at->contains(s.key)) return nullptr;
    at = s.index ? &(*at)[*s.index] : &(*at)[s.key];
  }
  return at;
}

const ordered_json& resolved(const ordered_json& node) {
  const ordered_json* n = &node;
  while (n->is_object() && n->contains("$ref")) {  // only "#/$defs/NAME" is used
    const auto ref = n->at("$ref").get<std::string>();
    n = &compiled().text.at("$defs").at(ref.substr(ref.rfind('/') + 1));
  }
  return *n;
}

// Where a path stands in the schema's order, and the schema node it leads to.
std::pair<Order, const ordered_json*> place(const Path& path) {
  static const ordered_json none = ordered_json::object();
  Order order;
  const ordered_json* node = &compiled().text;
  for (const Step& s : path) {
    const ordered_json& here = resolved(*node);
    if (s.index) {
      order.push_back({*s.index, ""});
      node = here.contains("items") ? &here.at("items") : &none;
      continue;
    }
    const ordered_json& listed = here.contains("properties") ? here.at("properties") : none;
    std::size_t i = 0;
    for (auto it = listed.begin(); it != listed.end() && it.key() != s.key; ++it) ++i;
    order.push_back(i < listed.size() ? std::pair{i, std::string()} : std::pair{listed.size(), s.key});
    const bool extra = here.contains("additionalProperties") && here.at("additionalProperties").is_object();
    node = i < listed.size() ? &listed.at(s.key) : extra ? &here.at("additionalProperties") : &none;
  }
  return {order, &resolved(*node)};
}

std::string kinds_text(const ordered_json& type) {
  std::string out;
  for (const auto& t : type.is_array() ? type : ordered_json::array({type})) {
    const std::string name = t.get<std::string>();
    const bool vowel = name == "integer" || name == "object" || name == "array";
    out += (out.empty() ? "" : " or ") + (name == "null" ? name : (vowel ? "an " : "a ") + name);
  }
  return out;
}

std::string shown(const json& v) {
  std::string text = v.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  const std::string kind = v.is_number_integer() ? "integer" : v.is_number() ? "number" : v.type_name();
  return v.is_null() ? "null" : kinds_text(ordered_json(kind)) + ": " + text;
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// valijson's description of a problem, said with what the schema wants and what the file has.
std::string problem_text(const std::string& description, const ordered_json& node, const json* value) {
  const std::string it = value ? " (it is " + shown(*value) + ")" : "";
  if (starts_with(description, "Missing required property"))
    return "missing" + (node.contains("type") ? " (" + kinds_text(node.at("type")) + ")" : "");
  if (starts_with(description, "Value type not permitted") && node.contains("type"))
    return "not " + kinds_text(node.at("type")) + it;
  if (starts_with(description, "Failed to match against any enum values") && node.contains("enum")) {
    std::string allowed;
    for (const auto& e : node.at("enum")) allowed += (allowed.empty() ? "" : ", ") + e.get<std::string>();
    const std::string word = !value ? "it" : value->is_string() ? "'" + value->get<std::string>() + "'" : value->dump();
    return word + " is not one of " + allowed;
  }
  const auto items = value && value->is_array() ? " (it has " + std::to_string(value->size()) + ")" : it;
  if (starts_with(description, "Array should contain no fewer") && node.contains("minItems"))
    return "must have at least " + node.at("minItems").dump() + " items" + items;
  if (starts_with(description, "Array should contain no more") && node.contains("maxItems"))
    return "must have at most " + node.at("maxItems").dump() + " items" + items;
  if (starts_with(description, "Expected number greater") && node.contains("minimum"))
    return "must be >= " + node.at("minimum").dump() + it;
  if (starts_with(description, "Expected number less") && node.contains("maximum"))
    return "must be <= " + node.at("maximum").dump() + it;
  return description.substr(0, description.find_last_not_of('.') + 1);
}

}  // namespace

std::optional<SchemaProblem> first_schema_problem(const json& doc) {
  valijson::Validator validator;  // strong types: 3.0 is not an integer (as the codec reads it)
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter adapter(doc);
  if (validator.validate(compiled().schema, adapter, &results)) return std::nullopt;
  // valijson also reports a failure at every level above it ("Failed to validate item #0 in
  // array."): the failures themselves are the problems, as jsonschema reports them. (The schema
  // uses no anyOf, whose branches the two would report differently: a nullable value is a type
  // list, and both name the element at fault.)
  std::optional<std::pair<Order, SchemaProblem>> first;
  for (const auto& e : results) {
    if (starts_with(e.description, "Failed to validate")) continue;
    Path path = path_of(e.context, doc);
    if (starts_with(e.description, "Missing required property")) {
      const auto quote = e.description.find('\'');
      path.push_back({std::nullopt, e.description.substr(quote + 1, e.description.rfind('\'') - quote - 1)});
    }
    auto [order, node] = place(path);
    if (!first || order < first->first)
      first = {order, {text_of(path), problem_text(e.description, *node, value_at(doc, path))}};
  }
  return first ? std::optional(first->second) : std::nullopt;
}

}  // namespace perfgate::store
