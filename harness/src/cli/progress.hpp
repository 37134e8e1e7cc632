// The progress line on stderr: scenario, round i of n, the current estimate. Only when stderr
// is a terminal and --quiet is not given; CI logs stay clean.
#pragma once

#include <string>

namespace perfgate::cli {

class Progress {
 public:
  explicit Progress(bool quiet);
  ~Progress();
  void update(const std::string& text);
  void clear();
  bool enabled() const { return enabled_; }

 private:
  bool enabled_;
  bool shown_ = false;
};

}  // namespace perfgate::cli
