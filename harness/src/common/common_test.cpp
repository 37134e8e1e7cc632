// The JSON field reader: every problem names file and field in one shape, and null reads as absent.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/json_fields.hpp"
#include "common/number_format.hpp"
#include "common/printable_text.hpp"
#include "common/program_path.hpp"
#include "common/usage_error_of.hpp"

using namespace perfgate;
using nlohmann::json;

namespace {

const json doc = json::parse(R"({
  "name": "demo", "empty": "", "nothing": null, "count": 3, "minus": -1, "ratio": 0.5, "big": 5000000000,
  "flag": true, "tags": ["a", "b"], "mixed": ["a", 1], "ci": [0.4, 0.6], "backwards": [0.6, 0.4],
  "kind": "zipf", "sub": {"deep": {"x": 1}}, "variants": [{"name": "before"}, {"name": 7}, "text"]
})");

}  // namespace

TEST(JsonFields, MessagesNameFileAndField) {
  const FieldReader r(doc, "f.json");
  EXPECT_EQ(usage_error_of([&] { r.string("title"); }), "f.json: title: missing (a string)");
  EXPECT_EQ(usage_error_of([&] { r.string("count"); }), "f.json: count: must be a string");
  const FieldReader deep = r.child("sub").child("deep");
  EXPECT_EQ(usage_error_of([&] { deep.string("x"); }), "f.json: sub.deep.x: must be a string");
  EXPECT_EQ(usage_error_of([&] { deep.fail("is wrong"); }), "f.json: sub.deep: is wrong");
  EXPECT_EQ(usage_error_of([&] { r.fail("is wrong"); }), "f.json: (top level): is wrong");
  EXPECT_EQ(usage_error_of([] { FieldReader(doc["tags"], "f.json"); }), "f.json: (top level): must be an object");
}

TEST(JsonFields, NullReadsAsAbsent) {
  const FieldReader r(doc, "f.json");
  EXPECT_FALSE(r.has("nothing"));
  EXPECT_EQ(r.string("nothing", "default"), "default");
  EXPECT_FALSE(r.optional_number("nothing").has_value());
  EXPECT_TRUE(r.optional_child("nothing").keys().empty());
  EXPECT_EQ(usage_error_of([&] { r.required("nothing", "a URL list file"); }),
            "f.json: nothing: missing (a URL list file)");
}

TEST(JsonFields, Strings) {
  const FieldReader r(doc, "f.json");
  EXPECT_EQ(r.string("name"), "demo");
  EXPECT_EQ(r.string("empty", "x"), "");
  EXPECT_EQ(usage_error_of([&] { r.non_empty_string("empty"); }), "f.json: empty: must be a non-empty string");
  EXPECT_EQ(r.non_empty_string("absent", "after"), "after");
  EXPECT_EQ(r.strings("tags"), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(r.strings("absent").empty());
  EXPECT_EQ(usage_error_of([&] { r.strings("mixed", "phase names"); }),
            "f.json: mixed: must be an array of phase names");
  EXPECT_EQ(usage_error_of([&] { r.strings("name"); }), "f.json: name: must be an array of strings");
}

TEST(JsonFields, OneOf) {
  const FieldReader r(doc, "f.json");
  EXPECT_EQ(r.one_of("kind", {"hot", "zipf"}), "zipf");
  EXPECT_EQ(r.one_of("absent", {"hot", "zipf"}, "hot"), "hot");
  EXPECT_EQ(usage_error_of([&] {
              r.one_of("kind", {"hot", "cycle"});
            }),
            "f.json: kind: 'zipf' is not one of hot, cycle");
  EXPECT_EQ(usage_error_of([&] { r.one_of("count", {"hot"}); }), "f.json: count: must be one of hot");
  EXPECT_EQ(usage_error_of([&] { r.one_of("absent", {"hot"}); }), "f.json: absent: missing (one of hot)");
}

TEST(JsonFields, NumbersAndBooleans) {
  const FieldReader r(doc, "f.json");
  EXPECT_DOUBLE_EQ(r.number("ratio", Sign::kPositive), 0.5);
  EXPECT_DOUBLE_EQ(r.number("minus"), -1);
  EXPECT_EQ(usage_error_of([&] { r.number("minus", Sign::kNonNegative); }), "f.json: minus: must be a number >= 0");
  EXPECT_EQ(usage_error_of([&] { r.number("name", Sign::kPositive); }), "f.json: name: must be a number > 0");
  EXPECT_EQ(*r.optional_boolean("flag"), true);
  EXPECT_EQ(usage_error_of([&] { r.optional_boolean("name"); }), "f.json: name: must be true or false");
  const json nan = {{"x", std::nan("")}};
  EXPECT_EQ(usage_error_of([&] { FieldReader(nan, "h.json").number("x"); }), "h.json: x: must be a number");
}

TEST(JsonFields, Integers) {
  const FieldReader r(doc, "f.json");
  EXPECT_EQ(r.integer("count", 1), 3);
  EXPECT_EQ(*r.optional_integer("count", 0), 3);
  EXPECT_FALSE(r.optional_integer("absent", 0).has_value());
  EXPECT_EQ(usage_error_of([&] { r.integer("minus", 0); }), "f.json: minus: must be an integer >= 0");
  EXPECT_EQ(usage_error_of([&] { r.integer("count", 4); }), "f.json: count: must be an integer >= 4");
  EXPECT_EQ(usage_error_of([&] { r.integer("ratio", 0); }), "f.json: ratio: must be an integer >= 0");
  EXPECT_EQ(usage_error_of([&] { r.integer("big", 0); }), "f.json: big: must be an integer from 0 to 2147483647");
  EXPECT_EQ(r.integer<std::uint64_t>("big", 0), 5000000000u);
  EXPECT_EQ(r.integer<long long>("minus", -1), -1);  // a signed JSON integer against a negative bound
}

TEST(JsonFields, Intervals) {
  const FieldReader r(doc, "f.json");
  EXPECT_EQ(r.interval("ci", Sign::kNonNegative), (std::array<double, 2>{0.4, 0.6}));
  EXPECT_EQ(usage_error_of([&] { r.interval("backwards", Sign::kNonNegative); }),
            "f.json: backwards: must be [lo, hi] with 0 <= lo <= hi");
  EXPECT_EQ(usage_error_of([&] { r.interval("backwards"); }), "f.json: backwards: must be [lo, hi] with lo <= hi");
  EXPECT_EQ(usage_error_of([&] { r.interval("tags"); }), "f.json: tags: must be [lo, hi], two numbers");
}

TEST(JsonFields, ArraysObjectsAndElements) {
  const FieldReader r(doc, "f.json");
  EXPECT_EQ(usage_error_of([&] { r.array("absent"); }), "f.json: absent: missing (an array)");
  EXPECT_EQ(usage_error_of([&] { r.array("sub"); }), "f.json: sub: must be an array");
  EXPECT_TRUE(r.optional_array("absent").empty());
  EXPECT_EQ(usage_error_of([&] { r.child("absent"); }), "f.json: absent: missing (an object)");
  EXPECT_EQ(usage_error_of([&] { r.optional_child("tags"); }), "f.json: tags: must be an object");
  EXPECT_EQ(usage_error_of([&] { r.elements("variants"); }), "f.json: variants[2]: must be an object");
  const json first_two = {{"variants", {doc["variants"][0], doc["variants"][1]}}};
  const auto variants = FieldReader(first_two, "f.json").elements("variants");
  ASSERT_EQ(variants.size(), 2u);
  EXPECT_EQ(variants[0].string("name"), "before");
  EXPECT_EQ(usage_error_of([&] { variants[1].string("name"); }), "f.json: variants[1].name: must be a string");
  EXPECT_TRUE(r.elements("absent").empty());
}

TEST(JsonFields, AllowOnly) {
  const json j = {{"stats_path", "/s"}, {"stats_pth", "/s"}};
  const FieldReader r(j, "m.json", "service");
  EXPECT_EQ(usage_error_of([&] {
              r.allow_only({"stats_path", "gbench"});
            }),
            "m.json: service.stats_pth: unknown key (known: stats_path, gbench)");
  EXPECT_EQ(usage_error_of([&] { r.allow_only({"stats_path", "stats_pth"}); }), "");
}

TEST(JsonFields, Kinds) {
  const json j = json::parse(R"({"ratio": "1.0x", "median": null, "n": 2.5, "shard": null})");
  const FieldReader r(j, "r.json", "scenarios[0]");
  EXPECT_EQ(usage_error_of([&] {
              r.kinds({{"ratio", kNumber | kNull}});
            }),
            "r.json: scenarios[0].ratio: not a number or null (it is string)");
  EXPECT_EQ(usage_error_of([&] {
              r.kinds({{"median", kNumber}});
            }),
            "r.json: scenarios[0].median: not a number (it is null)");
  EXPECT_EQ(usage_error_of([&] {
              r.kinds({{"n", kInteger}});
            }),
            "r.json: scenarios[0].n: not an integer (it is number)");
  EXPECT_EQ(usage_error_of([&] { r.kinds({{"id", kString, true}}); }), "r.json: scenarios[0].id: missing (a string)");
  EXPECT_EQ(usage_error_of([&] {
              r.kinds({{"median", kNumber | kNull}, {"shard", kObject | kNull}, {"absent", kArray}});
            }),
            "");
  EXPECT_EQ(usage_error_of([&] { r.kind_at(FieldReader::index("ci", 1), json("x"), kNumber | kNull); }),
            "r.json: scenarios[0].ci[1]: not a number or null (it is string)");
}

TEST(JsonFields, ParseDocument) {
  EXPECT_EQ(parse_document(R"({"a": 1})", "p.json", "a plan")["a"], 1);
  const std::string e = usage_error_of([] { parse_document("{ not json", "p.json", "a plan"); });
  EXPECT_EQ(e.rfind("p.json: not valid JSON (a plan): parse error at line 1", 0), 0u) << e;
  EXPECT_EQ(e.find("json.exception"), std::string::npos) << e;
  EXPECT_EQ(usage_error_of([] { parse_document(R"({"x": 1e999})", "p.json", "a plan"); }),
            "p.json: not valid JSON (a plan): number overflow parsing '1e999'");
}

// Every (value, unit) of the shared golden table prints as the table says; the report's Python
// formatter is held to the same table (reports/tests/test_report_fmt.py).
TEST(PrintableText, KeepsUtf8AndEscapesEveryOtherByte) {
  EXPECT_EQ(printable_text("caf\xc3\xa9 \xe2\x9c\x93\tok\n"), "caf\xc3\xa9 \xe2\x9c\x93\tok\n");
  EXPECT_EQ(printable_text("caf\xe9"), "caf\\xe9");
  EXPECT_EQ(printable_text(std::string("a\0b\r\x1b[0m", 8)), "a\\x00b\\x0d\\x1b[0m");
  // Overlong forms, surrogates and beyond U+10FFFF are not UTF-8 (nor are they to a JSON writer).
  EXPECT_EQ(printable_text("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(printable_text("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(printable_text("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
  EXPECT_EQ(printable_text("\xf0\x9f\x98"), "\\xf0\\x9f\\x98");  // cut short
  std::mt19937 rng(47);
  for (int i = 0; i < 5000; ++i) {
    std::string bytes(rng() % 64, '\0');
    for (auto& c : bytes) c = static_cast<char>(rng());
    ASSERT_NO_THROW((void)nlohmann::json(printable_text(bytes)).dump()) << i;
  }
}

TEST(TailOfFile, IsPrintableAndStartsOnACharacter) {
  TempDir d("perfgate-test-");
  std::ofstream(d.path() / "err") << "\xe2\x9c\x93 done \xff\n";
  EXPECT_EQ(tail_of_file(d.path() / "err", 9), " done \\xff");  // the cut check mark's last bytes dropped
  EXPECT_EQ(tail_of_file(d.path() / "err"), "\xe2\x9c\x93 done \\xff");
}

TEST(NumberFormat, GoldenTable) {
  std::ifstream in(PERFGATE_NUMBER_GOLDEN);
  ASSERT_TRUE(in) << PERFGATE_NUMBER_GOLDEN;
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string value, unit, text;
    std::getline(fields, value, '\t');
    std::getline(fields, unit, '\t');
    std::getline(fields, text);
    const double v = std::strtod(value.c_str(), nullptr);
    EXPECT_EQ(unit == "p-value" ? format_p_value(v) : format_quantity(v, unit == "-" ? "" : unit), text)
        << "(" << value << ", " << unit << ")";
    ++rows;
  }
  EXPECT_GE(rows, 40);
}

// A staged folder replaces the old one whole on commit, and leaves it alone when dropped.
TEST(StagedDir, ReplacesWholeOrNotAtAll) {
  perfgate::TempDir tmp("perfgate-test-");
  const auto dir = tmp.path() / "site";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "old.html") << "old";
  {
    perfgate::StagedDir dropped(dir);
    std::ofstream(dropped.path() / "new.html") << "new";
  }
  EXPECT_TRUE(std::filesystem::exists(dir / "old.html"));
  {
    perfgate::StagedDir staged(dir);
    std::ofstream(staged.path() / "new.html") << "new";
    staged.commit();
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "old.html"));
  EXPECT_TRUE(std::filesystem::exists(dir / "new.html"));
  std::size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(tmp.path()))
    entries += e.path().filename() == "site" ? 0 : 1;
  EXPECT_EQ(entries, 0u);  // no staged folder left beside it
  perfgate::StagedDir fresh(tmp.path() / "new-site");
  fresh.commit();
  EXPECT_TRUE(std::filesystem::is_directory(tmp.path() / "new-site"));
}

// Padded paths name the same file at the asked length, whatever the difference's parity.
TEST(ProgramPath, PaddedPathsNameTheSameFileAtOneLength) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("perfgate-pad-" + std::to_string(::getpid()));
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "sub" / "prog") << "x";
  const std::string absolute = (dir / "sub" / "prog").string();
  for (std::size_t extra = 0; extra < 6; ++extra) {
    const std::string p = padded_path(absolute, absolute.size() + extra);
    EXPECT_EQ(p.size(), absolute.size() + extra) << p;
    EXPECT_TRUE(fs::equivalent(p, absolute)) << p;
    EXPECT_NE(p.rfind("//", 0), 0u) << p;  // no leading "//": POSIX leaves its meaning open
  }
  const fs::path cwd = fs::current_path();
  fs::current_path(dir);
  for (const std::string relative : {"sub/prog", "./sub/prog"})
    for (std::size_t extra = 0; extra < 6; ++extra) {
      const std::string p = padded_path(relative, relative.size() + extra);
      EXPECT_EQ(p.size(), relative.size() + extra) << p;
      EXPECT_TRUE(fs::equivalent(p, absolute)) << p;
    }
  fs::current_path(cwd);
  EXPECT_EQ(longest_path({"./sub/prog", absolute, "a-much-longer-name-looked-up-on-PATH"}), absolute.size());
  EXPECT_EQ(padded_path("prog", 10), "prog");  // looked up on PATH: not a path to pad
  fs::remove_all(dir);
}
