// What `perfgate ab` digests of a sample: the program's stdout and, when it wrote one, its
// $PERFGATE_OUTPUT file, with the volatile parts a user names by `--mask REGEX` (timings, pids,
// temporary paths, dates) masked first, so two programs that differ only there do the same work.
#pragma once

#include <regex>
#include <string>
#include <vector>

#include "run/batch_runner.hpp"
#include "run/sample.hpp"

namespace perfgate::run {

struct OutputMask {
  std::string pattern;
  std::regex re;
};

// ECMAScript regular expressions; a malformed one is a UsageError naming it (exit 2).
std::vector<OutputMask> compile_masks(const std::vector<std::string>& patterns);

// `line` with every match of each mask, in order, replaced by "<masked N>" (N: the mask's
// place, from 1); adds each mask's matches to `counts`.
std::string mask_line(const std::string& line, const std::vector<OutputMask>& masks, std::vector<long>& counts);

// Digests the sample's output into s.digest. The compared text (stdout, then "==>
// $PERFGATE_OUTPUT <==" and that file when the program wrote it; masked line by line when
// `masks` is not empty) is left at files.output_path, which a mismatch is diffed on, the same
// text unmasked at files.raw_path (what `ab --check` is given), and how often each mask matched
// in s.extra["masked"] (pattern -> matches). Without masks or an output file the digest is
// stdout's bytes, as it always was.
void digest_program_output(SampleFiles& files, const std::vector<std::string>& masks, Sample& s);

}  // namespace perfgate::run
