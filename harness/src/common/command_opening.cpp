#include "common/command_opening.hpp"

#include "common/shell_words.hpp"

namespace perfgate {

CommandOpening::CommandOpening(OpeningRequest request) : request_(std::move(request)) {
  const bool writes_folder =
      request_.writes_folder_with_json || (request_.json_path.empty() && !request_.out_dir.empty());
  if (writes_folder) lock_.emplace(request_.out_dir, join_command(request_.argv));
}

std::filesystem::path CommandOpening::json_file() const {
  if (!request_.json_path.empty()) return request_.json_path;
  return request_.out_dir / request_.json_name;
}

}  // namespace perfgate
