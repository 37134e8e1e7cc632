#include "run/output_mask.hpp"

#include <fstream>

#include "common/errors.hpp"
#include "perfgate/sample.hpp"

namespace perfgate::run {

namespace {

constexpr const char* kOutputHeader = "==> $PERFGATE_OUTPUT <==";

// Appends `from` to `to` and feeds the digest; with masks, line by line through mask_line.
void append(std::ifstream& from, std::ofstream& to, std::ofstream* raw, Digest& d, const std::vector<OutputMask>& masks,
            std::vector<long>& counts) {
  if (masks.empty()) {
    char buf[1 << 16];
    while (from.read(buf, sizeof buf) || from.gcount() > 0) {
      const auto n = static_cast<std::size_t>(from.gcount());
      d.update(buf, n);
      to.write(buf, static_cast<std::streamsize>(n));
      if (raw) raw->write(buf, static_cast<std::streamsize>(n));
    }
    return;
  }
  std::string line;
  while (std::getline(from, line)) {
    const bool newline = !from.eof();
    std::string masked = mask_line(line, masks, counts) + (newline ? "\n" : "");
    d.update(masked.data(), masked.size());
    to << masked;
    if (raw) *raw << line << (newline ? "\n" : "");
  }
}

}  // namespace

std::vector<OutputMask> compile_masks(const std::vector<std::string>& patterns) {
  std::vector<OutputMask> out;
  for (const auto& p : patterns) {
    if (p.empty()) throw UsageError("--mask: an empty pattern would match everywhere");
    try {
      out.push_back({p, std::regex(p, std::regex::ECMAScript | std::regex::optimize)});
    } catch (const std::regex_error& e) {
      throw UsageError("--mask '" + p + "': not a regular expression (" + e.what() + ")");
    }
  }
  return out;
}

std::string mask_line(const std::string& line, const std::vector<OutputMask>& masks, std::vector<long>& counts) {
  counts.resize(masks.size(), 0);
  std::string text = line;
  for (std::size_t i = 0; i < masks.size(); ++i) {
    std::string out;
    auto last = text.cbegin();
    for (std::sregex_iterator it(text.cbegin(), text.cend(), masks[i].re), end; it != end; ++it) {
      if (it->length(0) == 0) continue;  // an empty match masks nothing
      out.append(last, (*it)[0].first);
      out += "<masked " + std::to_string(i + 1) + ">";
      last = (*it)[0].second;
      ++counts[i];
    }
    out.append(last, text.cend());
    text = std::move(out);
  }
  return text;
}

void digest_program_output(SampleFiles& files, const std::vector<std::string>& patterns, Sample& s) {
  const auto masks = compile_masks(patterns);
  std::vector<long> counts(masks.size(), 0);
  const fs::path compared = files.output_path.string() + ".compared", raw = files.output_path.string() + ".raw";
  Digest d;
  {
    std::ofstream to(compared, std::ios::binary);
    std::ofstream raw_to;
    if (!masks.empty()) raw_to.open(raw, std::ios::binary);
    std::ifstream out(files.stdout_path, std::ios::binary);
    append(out, to, masks.empty() ? nullptr : &raw_to, d, masks, counts);
    std::ifstream program_output(files.output_path, std::ios::binary);
    if (program_output) {  // the program wrote $PERFGATE_OUTPUT: its work is compared too
      const std::string header = std::string(kOutputHeader) + "\n";
      d.update(header.data(), header.size());
      to << header;
      if (!masks.empty()) raw_to << header;
      append(program_output, to, masks.empty() ? nullptr : &raw_to, d, masks, counts);
    }
  }
  s.digest = d.hex();
  std::error_code ec;
  fs::rename(compared, files.output_path, ec);
  if (ec)
    throw RunError("cannot keep the output of " + s.variant + " at " + files.output_path.string() + ": " +
                   ec.message());
  files.raw_path = masks.empty() ? files.output_path : raw;
  if (!masks.empty()) {
    nlohmann::json masked = nlohmann::json::object();
    for (std::size_t i = 0; i < masks.size(); ++i) masked[masks[i].pattern] = counts[i];
    s.extra["masked"] = masked;
  }
}

}  // namespace perfgate::run
