// Where the suite layer says what it is doing (scenario, round, estimate): the CLI's progress
// line on a terminal, nothing in tests. Callers that pass nothing get silence.
#pragma once

#include <functional>
#include <string>

namespace perfgate::suite {

struct StatusLine {
  std::function<void(const std::string&)> show;
  std::function<void()> clear;

  void update(const std::string& text) const {
    if (show) show(text);
  }
  void done() const {
    if (clear) clear();
  }
};

}  // namespace perfgate::suite
