#include "export/exports.hpp"

#include <cstdlib>
#include <iostream>

#include "common/files.hpp"
#include "export/ab_text.hpp"
#include "export/gbench_export.hpp"
#include "export/github_actions.hpp"
#include "export/hyperfine_json.hpp"
#include "export/junit_file.hpp"

namespace perfgate::exports {

namespace {

// As the results file: a string that is not UTF-8 gets U+FFFD rather than lose the document.
std::string json_text(const nlohmann::json& doc, int indent = 2) {
  return doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

std::vector<Export> run_exports(const model::ResultsDoc& doc, const plan::Outputs& o) {
  std::vector<Export> out;
  auto add = [&](const std::string& flag, const std::filesystem::path& file, std::function<std::string()> render) {
    if (!file.empty()) out.push_back({flag + " " + file.string(), file, std::move(render)});
  };
  add("--junit", o.junit, [&doc] { return junit_xml(doc); });
  add("--export-gbench", o.gbench, [&doc] { return json_text(gbench_json(doc)); });
  add("--export-markdown", o.ab_markdown, [&doc, &o] { return ab_markdown(doc, o.time_unit); });
  add("--export-csv", o.ab_csv, [&doc] { return ab_csv(doc); });
  add("--export-json", o.ab_hyperfine_json, [&doc] { return json_text(hyperfine_json(doc)); });
  if (on_github_actions()) {
    out.push_back({"the workflow annotations", {}, [&doc] { return annotations(doc); }, Export::Mode::Stdout});
    if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); summary && *summary)
      out.push_back({"the step summary", summary, [&doc] { return markdown_summary(doc); }, Export::Mode::Append});
  }
  return out;
}

Export json_export(const std::string& what, const std::filesystem::path& file, const nlohmann::json& doc, int indent) {
  return {what + " " + file.string(), file, [doc, indent] { return json_text(doc, indent); }};
}

int write_exports(const std::vector<Export>& exports, int exit_code) {
  int failed = 0;
  for (const auto& e : exports) {
    try {
      const std::string text = e.render();
      switch (e.mode) {
        case Export::Mode::Replace:
          if (e.file.has_parent_path()) std::filesystem::create_directories(e.file.parent_path());
          write_file_atomic(e.file, text);
          break;
        case Export::Mode::Append:
          append_file(e.file, text);
          break;
        case Export::Mode::Stdout:
          std::cout << text << std::flush;
          break;
      }
    } catch (const std::exception& x) {
      if (e.required) throw;
      ++failed;
      std::cerr << "perfgate: error: " << e.what << ": " << x.what()
                << " (not written; the exit code is still the gates', " << exit_code << ")\n";
    }
  }
  return failed;
}

}  // namespace perfgate::exports
