// Files and folders the harness owns: temporary directories removed on every exit, atomic
// writes (temporary file + rename), small file reads.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

namespace fs = std::filesystem;

// A fresh directory under $TMPDIR (or /tmp) named <prefix><pid>-<start>-XXXXXX after its owner
// (process/owner.hpp), removed with everything in it on destruction — or, when the owner was
// killed before it could, by the next run (run::reap_leftovers).
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "perfgate-");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  // Make a fresh empty subdirectory.
  fs::path subdir(const std::string& name) const;

 private:
  fs::path path_;
};

// A sample's serial as a folder name's part, nine digits wide: every sample folder of a run has
// one length, so a path a program sees (its TMPDIR, --benchmark_out) does not move its memory
// layout from one sample to the next (common/program_path.hpp).
std::string padded_serial(int serial);

// Every TempDir prefix the harness uses (the reaper looks for these).
const std::vector<std::string>& temp_dir_prefixes();

// A folder written whole or not at all. Everything is written into a fresh sibling of `dir`
// (.NAME.staged-XXXXXX, on the same file system), and commit() puts it in `dir`'s place in one
// rename: renameat2(RENAME_EXCHANGE) when `dir` exists, so a reader sees the old folder or the
// new one, never a mix or nothing; the old one is then removed. Destroyed uncommitted, the
// sibling is removed and `dir` is untouched.
class StagedDir {
 public:
  explicit StagedDir(const fs::path& dir);
  ~StagedDir();
  StagedDir(const StagedDir&) = delete;
  StagedDir& operator=(const StagedDir&) = delete;
  const fs::path& path() const { return staged_; }  // write here
  void commit();

 private:
  fs::path dir_, staged_;
  bool committed_ = false;
};

// Write `content` to `path` atomically: a temporary file in the same folder, fsync, rename.
void write_file_atomic(const fs::path& path, const std::string& content);

// Appends `content` with O_APPEND writes (a file several writers share, such as GitHub's step
// summary). Throws RunError naming the file.
void append_file(const fs::path& path, const std::string& content);

std::string read_file(const fs::path& path);
std::optional<std::string> try_read_file(const fs::path& path);

// The last non-empty line of a file (the scenario contract's JSON line), read from the end.
std::string last_nonempty_line(const fs::path& path);

// The last `max_bytes` of a file, for error messages quoting a child's stderr: printable_text, so
// whatever bytes the child wrote, a message and a results file can hold it.
std::string tail_of_file(const fs::path& path, std::size_t max_bytes = 2000);

}  // namespace perfgate
