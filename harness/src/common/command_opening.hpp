// How a command that writes into an out folder begins: the folder, where its JSON document goes
// (--json FILE, else its own file in the folder), its command line, and the folder's lock
// (out_folder_lock.hpp), held for as long as the opening lives. Every such command opens the same
// way, so a second one on the same folder fails at once (exit 2) whichever command either is.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/out_folder_lock.hpp"

namespace perfgate {

struct OpeningRequest {
  std::filesystem::path out_dir = {};    // --out
  std::string json_path = {};            // --json: the document goes there instead
  std::string json_name = {};            // the document's file in out_dir without --json
  std::vector<std::string> argv = {};    // the command line: the lock's holder
  bool writes_folder_with_json = false;  // files of its own in out_dir even with --json
};

class CommandOpening {
 public:
  // Takes the out folder's lock when the command writes into it: throws UsageError (exit 2)
  // naming the holder when another command has it.
  explicit CommandOpening(OpeningRequest request);

  const std::filesystem::path& out_dir() const { return request_.out_dir; }
  // --json's file, else out_dir/json_name.
  std::filesystem::path json_file() const;
  const std::vector<std::string>& argv() const { return request_.argv; }
  bool holds_folder() const { return lock_.has_value(); }

 private:
  OpeningRequest request_;
  std::optional<OutFolderLock> lock_;
};

}  // namespace perfgate
