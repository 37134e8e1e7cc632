#include "store/results_input.hpp"

#include "common/errors.hpp"
#include "common/files.hpp"
#include "store/results_shape.hpp"

namespace perfgate::store {

using json = nlohmann::json;

namespace {

void need(bool ok, const std::string& file, const std::string& field, const std::string& problem) {
  if (!ok) throw UsageError(file + ": " + field + ": " + problem);
}

}  // namespace

json load_results(const std::filesystem::path& path) {
  const std::string f = path.string();
  auto text = try_read_file(path);
  if (!text) throw UsageError(f + ": cannot read the results file (does it exist?)");
  json doc = json::parse(*text, nullptr, false);
  if (doc.is_discarded()) throw UsageError(f + ": not valid JSON (is it a perfgate results file?)");
  need(doc.is_object(), f, "(top level)", "must be an object");
  need(doc.contains("schema_version"), f, "schema_version", "missing (not a perfgate results file?)");
  need(doc["schema_version"] == 1, f, "schema_version",
       "is " + doc["schema_version"].dump() + "; this perfgate reads 1");
  check_results_shape(doc, f);
  return doc;
}

}  // namespace perfgate::store
