// What a command says while it runs, on stderr: on a terminal, one line replaced in place
// (scenario, round i of n, the current estimate); the log lines the suite writes (notes,
// warnings) either way, but for --quiet. Its sink() is the suite's RunSink.
#pragma once

#include <string>

#include "suite/run_sink.hpp"

namespace perfgate::cli {

class Progress {
 public:
  explicit Progress(bool quiet);
  ~Progress();
  void update(const std::string& text);
  void clear();
  // "perfgate: LINE" on stderr (the live line cleared first), unless quiet and not `always`.
  void log(const std::string& line, bool always);
  bool enabled() const { return enabled_; }
  suite::RunSink sink();

 private:
  bool quiet_;
  bool enabled_;
  bool shown_ = false;
};

}  // namespace perfgate::cli
