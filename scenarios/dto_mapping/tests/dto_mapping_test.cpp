// The gate's premise: BEFORE and AFTER give byte-identical DTOs, and each declared lie does not.
#include <gtest/gtest.h>

#include <set>

#include "dto.hpp"

namespace {

using namespace dto_mapping;

std::vector<std::string> files_before(const std::vector<File>& files) {
  std::vector<std::string> rows;
  for (const auto& f : files) rows.push_back(canonical(before::map_file(f)));
  return rows;
}
std::vector<std::string> files_after(const std::vector<File>& files, const Lies& lies = {}) {
  std::vector<std::string> rows;
  for (const auto& f : files) rows.push_back(canonical(after::map_file(f, lies)));
  return rows;
}
std::vector<std::string> folders_before(std::vector<Folder> folders) {
  std::vector<std::string> rows;
  for (auto& f : folders) rows.push_back(canonical(before::map_folder(std::move(f))));
  return rows;
}
std::vector<std::string> folders_after(std::vector<Folder> folders, const Lies& lies = {}) {
  std::vector<std::string> rows;
  for (auto& f : folders) rows.push_back(canonical(after::map_folder(std::move(f), lies)));
  return rows;
}

TEST(DtoMapping, FilesIdenticalBeforeAndAfter) {
  const auto files = make_files(3000);
  EXPECT_EQ(files_before(files), files_after(files));
}

TEST(DtoMapping, FoldersIdenticalBeforeAndAfter) {
  const auto folders = make_folders(3000);
  EXPECT_EQ(folders_before(folders), folders_after(folders));
}

TEST(DtoMapping, EntitiesAreDeterministic) {
  EXPECT_EQ(files_before(make_files(200)), files_before(make_files(200)));
  EXPECT_EQ(folders_before(make_folders(200)), folders_before(make_folders(200)));
}

TEST(DtoMapping, DataCoversUnknownMimesAndEveryUnit) {
  const auto files = make_files(3000);
  std::set<std::string> units;
  std::size_t unknown = 0;
  for (const auto& f : files) {
    const auto d = after::map_file(f);
    units.insert(d.size_human.substr(d.size_human.rfind(' ') + 1));
    if (classify(f.mime_type).category == "Other" && f.mime_type != "application/octet-stream") ++unknown;
    EXPECT_EQ(*d.mime_type, f.mime_type);
  }
  EXPECT_GT(unknown, 0u);
  EXPECT_EQ(units, (std::set<std::string>{"B", "KB", "MB", "GB"}));
}

TEST(DtoMapping, InterningSharesKnownValuesOnly) {
  const auto files = make_files(100);
  const auto a = after::map_file(files[0]);
  const auto b = after::map_file(files[0]);
  EXPECT_EQ(a.icon_class.get(), b.icon_class.get());  // one interned string
  const auto c = before::map_file(files[0]);
  const auto d = before::map_file(files[0]);
  EXPECT_NE(c.icon_class.get(), d.icon_class.get());  // a fresh copy per row
}

TEST(DtoMapping, ClosedSetIsAboutSixtyValues) {
  EXPECT_GE(closed_set().size(), 50u);
  EXPECT_LE(closed_set().size(), 80u);
}

TEST(DtoMapping, LieUnknownMimeEmptyChangesOutput) {
  const auto files = make_files(500);
  Lies lies;
  lies.unknown_mime_empty = true;
  EXPECT_NE(files_before(files), files_after(files, lies));
}

TEST(DtoMapping, LieInternByPrefixChangesOutput) {
  const auto files = make_files(500);
  Lies lies;
  lies.intern_by_prefix = true;
  EXPECT_NE(files_before(files), files_after(files, lies));
}

TEST(DtoMapping, LieSkipFolderEtagChangesOutput) {
  const auto folders = make_folders(50);
  Lies lies;
  lies.skip_folder_etag = true;
  EXPECT_NE(folders_before(folders), folders_after(folders, lies));
}

TEST(DtoMapping, ProbesIdenticalBeforeAndAfter) {
  auto files = make_files(300);
  auto folders = make_folders(300);
  edit_every_seventh(files, folders);
  EXPECT_EQ(files[10].name.rfind("Renamed ", 0), 0u);
  EXPECT_EQ(folders[3].path.substr(folders[3].path.rfind('/') + 1), folders[3].name);
  EXPECT_EQ(files_before(files), files_after(files));
  EXPECT_EQ(folders_before(folders), folders_after(folders));
  EXPECT_EQ(files_before(make_odd_files()), files_after(make_odd_files()));
  EXPECT_EQ(folders_before(make_odd_folders()), folders_after(make_odd_folders()));
}

TEST(DtoMapping, OddFilesMappedVerbatim) {
  const auto odd = make_odd_files();
  const auto upper = before::map_file(odd[0]);  // IMAGE/PNG, size -1
  EXPECT_EQ(*upper.mime_type, "IMAGE/PNG");
  EXPECT_EQ(*upper.category, "Other");
  EXPECT_EQ(upper.size_human, "-1 B");
  EXPECT_EQ(before::map_file(odd[4]).size_human, "4194304.0 TB");  // 2^62
  EXPECT_EQ(*after::map_file(odd[2]).mime_type, "");               // the empty mime type
}

TEST(DtoMapping, LieDtoByIdDiffersAfterEdits) {
  auto files = make_files(100);
  auto folders = make_folders(100);
  Lies lies;
  lies.dto_by_id = true;
  EXPECT_EQ(files_before(files), files_after(files, lies));
  EXPECT_EQ(folders_before(folders), folders_after(folders, lies));
  edit_every_seventh(files, folders);
  EXPECT_NE(files_before(files), files_after(files, lies));
  EXPECT_NE(folders_before(folders), folders_after(folders, lies));
}

TEST(DtoMapping, LieFoldedMimeDiffersOnOddFiles) {
  Lies lies;
  lies.folded_mime = true;
  EXPECT_EQ(files_before(make_files(200)), files_after(make_files(200), lies));  // the seed never asks
  EXPECT_NE(files_before(make_odd_files()), files_after(make_odd_files(), lies));
}

}  // namespace
