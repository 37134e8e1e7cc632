#include "export/compare_command.hpp"

#include <iostream>
#include <set>

#include "common/errors.hpp"
#include "export/compare_markdown.hpp"
#include "export/compare_text.hpp"
#include "export/exports.hpp"
#include "store/results_codec.hpp"
#include "store/results_complete.hpp"

namespace perfgate::exports {
namespace {

int exit_code_of(const gate::RunDiff& d, const gate::GateDecision& verdict, bool fail_on_regression) {
  if (fail_on_regression) return verdict.exit_code;
  return d.rows.empty() ? kExitUsage : kExitOk;  // nothing to show is bad input even without the gate
}

}  // namespace

int run_compare(const CompareRequest& r) {
  const std::string& old_file = r.files.at(0);
  const std::string& new_file = r.files.at(1);
  const auto old_doc = store::read_results(old_file), new_doc = store::read_results(new_file);
  gate::DiffOptions options = r.options;
  options.metrics = std::set<std::string>(r.metrics.begin(), r.metrics.end());
  options.gate_variants = std::set<std::string>(r.gate_variants.begin(), r.gate_variants.end());
  const auto d = gate::diff_runs(old_doc, new_doc, options);
  std::string not_gateable = store::why_not_gateable(old_doc, old_file);
  if (not_gateable.empty()) not_gateable = store::why_not_gateable(new_doc, new_file);
  const gate::GateDecision verdict = gate::decide_gate(d, options, not_gateable);
  print_outcomes(std::cout, d);
  for (const auto& w : print_commands(std::cout, old_doc, new_doc)) std::cerr << "perfgate: warning: " << w << "\n";
  print_compare_text(std::cout, d, old_file, new_file, options);
  print_gate_text(std::cout, d, options, verdict);
  const int code = exit_code_of(d, verdict, r.fail_on_regression);
  std::vector<Export> docs;
  if (!r.json_out.empty()) docs.push_back(json_export("--json", r.json_out, gate::to_json(d)));
  if (!r.markdown_out.empty())
    docs.push_back({"--markdown " + r.markdown_out, r.markdown_out,
                    [&] { return compare_markdown(d, old_file, new_file, options, verdict); }});
  write_exports(docs, code);
  if (code != kExitOk) std::cerr << "perfgate: " << verdict.headline << "\n";
  return code;
}

}  // namespace perfgate::exports
