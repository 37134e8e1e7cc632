#include "history/history_series.hpp"

#include <algorithm>

namespace perfgate::history {

stats::StepFit fit_series(const std::vector<history::HistoryPoint>& points, const StepSettings& settings) {
  stats::StepFitOptions fit = settings.fit;
  fit.min_step = settings.min_step_pct / 100.0;
  std::vector<double> values;
  values.reserve(points.size());
  for (const auto& p : points) values.push_back(p.value);
  return stats::fit_steps(values, fit);
}

std::size_t drop_against_runs(std::vector<history::HistoryPoint>& points) {
  const auto before = points.size();
  std::erase_if(points, [](const history::HistoryPoint& p) { return p.against; });
  return before - points.size();
}

std::vector<std::string> host_classes(const std::vector<history::HistoryPoint>& points) {
  std::vector<std::string> out;
  for (const auto& p : points)
    if (std::find(out.begin(), out.end(), p.host_class) == out.end()) out.push_back(p.host_class);
  return out;
}

std::vector<history::HistoryPoint> of_host_class(const std::vector<history::HistoryPoint>& points,
                                                 const std::string& host_class) {
  std::vector<history::HistoryPoint> out;
  for (const auto& p : points)
    if (p.host_class == host_class) out.push_back(p);
  return out;
}

std::string host_class_label(const std::string& host_class) {
  return host_class.empty() ? "no host class (recorded before history schema 2)" : host_class;
}

}  // namespace perfgate::history
