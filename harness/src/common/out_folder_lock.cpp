#include "common/out_folder_lock.hpp"

#include "common/errors.hpp"

namespace perfgate {

OutFolderLock::OutFolderLock(const std::filesystem::path& folder, const std::string& holder) {
  std::filesystem::create_directories(folder);
  std::string who;
  lock_ = RunLock::try_exclusive(folder / kFile, holder, &who);
  if (!lock_)
    throw UsageError("the out folder " + std::filesystem::absolute(folder).string() + " is in use by " + who +
                     ": its results would replace each other's; wait for it to finish, or give this one --out DIR");
}

}  // namespace perfgate
