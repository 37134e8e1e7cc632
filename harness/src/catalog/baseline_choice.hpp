// --baseline as asked, the word read once: the default baseline.json (share/perfgate/
// baseline.json, or a --catalog run's DIR/baseline.json), a file named, or none. Whoever takes
// it (planning, history publish) resolves it; nothing after compares the word "none".
#pragma once

#include <filesystem>
#include <string>

namespace perfgate::catalog {

struct BaselineChoice {
  enum class Kind { DefaultFile, File, None };
  Kind kind = Kind::DefaultFile;
  std::filesystem::path file = {};  // Kind::File

  // --baseline's word: "none", a file, or empty (the default file, as when it is not given).
  static BaselineChoice from_flag(const std::string& word) {
    if (word == "none") return {Kind::None};
    if (word.empty()) return {Kind::DefaultFile};
    return {Kind::File, word};
  }
  bool none() const { return kind == Kind::None; }
};

}  // namespace perfgate::catalog
