// A small seeded mail cache shared by a test binary (seeded once, removed at exit) and a way
// to talk to a session without a socket.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "imap_session.hpp"
#include "seed.hpp"

namespace imap_select::testing {

inline const std::string& fixture_dir() {
  struct Dir {
    std::string path;
    Dir() {
      std::string tmpl = (std::filesystem::temp_directory_path() / "imap_select-test-XXXXXX").string();
      if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
      path = tmpl;
      SeedParams p;
      p.messages = 400;
      p.other_messages = 30;
      seed_fixture(p, path);
    }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static Dir dir;
  return dir.path;
}

// One command line (no literal) through the session: its whole answer.
inline std::string say(ImapSession& s, const std::string& line) { return s.handle(RawCommand{{line}, {}}); }

}  // namespace imap_select::testing
