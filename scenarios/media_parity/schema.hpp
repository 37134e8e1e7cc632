// The media library in SQLite, in Jellyfin's own table and column names (10.11's EF Core
// schema, reduced to what the listing API reads). Written by `media_parity seed`, read by
// `serve`. Ids are 32 lower-case hex digits, as Jellyfin stores its Guids.
#pragma once

#include <array>
#include <string_view>

namespace media_parity {

inline constexpr const char* kDatabaseFile = "library.db";
inline constexpr const char* kRequestsFile = "requests.txt";
inline constexpr const char* kProbesFile = "probes.txt";  // service.probes (probe_set.cpp)

inline constexpr const char* kSchema = R"sql(
CREATE TABLE BaseItems (
  Id TEXT PRIMARY KEY NOT NULL, Type TEXT NOT NULL, Name TEXT, SortName TEXT, CleanName TEXT,
  ParentId TEXT, TopParentId TEXT, SeriesId TEXT, SeasonId TEXT, SeriesName TEXT, Album TEXT,
  AlbumArtists TEXT, DateCreated TEXT, PremiereDate TEXT, ProductionYear INTEGER,
  CommunityRating REAL, OfficialRating TEXT, RunTimeTicks INTEGER, Overview TEXT,
  IsFolder INTEGER NOT NULL DEFAULT 0, MediaType TEXT, IndexNumber INTEGER,
  ParentIndexNumber INTEGER, CollectionType TEXT, PresentationUniqueKey TEXT);
CREATE INDEX IX_BaseItems_Type_TopParentId_SortName ON BaseItems (Type, TopParentId, SortName);
CREATE INDEX IX_BaseItems_TopParentId_Type_DateCreated ON BaseItems (TopParentId, Type, DateCreated);
CREATE INDEX IX_BaseItems_ParentId ON BaseItems (ParentId);
CREATE INDEX IX_BaseItems_Type_Name ON BaseItems (Type, Name);
CREATE TABLE AncestorIds (ItemId TEXT NOT NULL, ParentItemId TEXT NOT NULL, PRIMARY KEY (ItemId, ParentItemId));
CREATE INDEX IX_AncestorIds_ParentItemId ON AncestorIds (ParentItemId);
CREATE TABLE ItemValues (ItemValueId TEXT PRIMARY KEY NOT NULL, Type INTEGER NOT NULL, Value TEXT NOT NULL,
  CleanValue TEXT NOT NULL);
CREATE UNIQUE INDEX IX_ItemValues_Type_CleanValue ON ItemValues (Type, CleanValue);
CREATE TABLE ItemValuesMap (ItemId TEXT NOT NULL, ItemValueId TEXT NOT NULL, PRIMARY KEY (ItemValueId, ItemId));
CREATE INDEX IX_ItemValuesMap_ItemId ON ItemValuesMap (ItemId);
CREATE TABLE Peoples (Id TEXT PRIMARY KEY NOT NULL, Name TEXT NOT NULL, PersonType TEXT);
CREATE UNIQUE INDEX IX_Peoples_Name ON Peoples (Name);
CREATE TABLE PeopleBaseItemMap (ItemId TEXT NOT NULL, PeopleId TEXT NOT NULL, Role TEXT, SortOrder INTEGER,
  ListOrder INTEGER, PRIMARY KEY (ItemId, PeopleId));
CREATE INDEX IX_PeopleBaseItemMap_PeopleId ON PeopleBaseItemMap (PeopleId);
CREATE TABLE Users (Id TEXT PRIMARY KEY NOT NULL, Username TEXT NOT NULL UNIQUE);
CREATE TABLE Permissions (Id INTEGER PRIMARY KEY, UserId TEXT NOT NULL, Kind INTEGER NOT NULL, Value INTEGER NOT NULL);
CREATE INDEX IX_Permissions_UserId_Kind ON Permissions (UserId, Kind);
CREATE TABLE Preferences (Id INTEGER PRIMARY KEY, UserId TEXT NOT NULL, Kind INTEGER NOT NULL, Value TEXT NOT NULL);
CREATE INDEX IX_Preferences_UserId_Kind ON Preferences (UserId, Kind);
CREATE TABLE UserData (ItemId TEXT NOT NULL, UserId TEXT NOT NULL, CustomDataKey TEXT NOT NULL,
  Played INTEGER NOT NULL, PlayCount INTEGER NOT NULL, IsFavorite INTEGER NOT NULL,
  PlaybackPositionTicks INTEGER NOT NULL, LastPlayedDate TEXT, PRIMARY KEY (ItemId, UserId, CustomDataKey));
CREATE INDEX IX_UserData_UserId_Played ON UserData (UserId, Played);
CREATE INDEX IX_UserData_UserId_IsFavorite ON UserData (UserId, IsFavorite);
CREATE TABLE MediaStreamInfos (ItemId TEXT NOT NULL, StreamIndex INTEGER NOT NULL, StreamType TEXT NOT NULL,
  Codec TEXT, Language TEXT, Width INTEGER, Height INTEGER, BitRate INTEGER, Channels INTEGER,
  IsDefault INTEGER NOT NULL, PRIMARY KEY (ItemId, StreamIndex));
CREATE TABLE BaseItemImageInfos (Id TEXT PRIMARY KEY NOT NULL, ItemId TEXT NOT NULL, ImageType INTEGER NOT NULL,
  Path TEXT NOT NULL, DateModified TEXT NOT NULL, Width INTEGER, Height INTEGER, Blurhash TEXT);
CREATE INDEX IX_BaseItemImageInfos_ItemId ON BaseItemImageInfos (ItemId);
)sql";

// ItemValues.Type, as Jellyfin numbers them.
enum ValueType { kArtist = 0, kAlbumArtist = 1, kGenre = 2, kStudio = 3, kTags = 4 };
// Permissions.Kind / Preferences.Kind (Jellyfin's PermissionKind / PreferenceKind values).
inline constexpr int kPermissionIsDisabled = 2;
inline constexpr const char* kDisabledUser = "disabled01";  // the one disabled account (seed.cpp users)
inline constexpr int kPermissionEnableAllFolders = 14;
inline constexpr int kPreferenceEnabledFolders = 5;
// BaseItemImageInfos.ImageType.
inline constexpr int kImagePrimary = 0;
inline constexpr int kImageBackdrop = 2;

// Jellyfin stores the CLR type name; the API answers the short one.
struct ItemType {
  std::string_view short_name, stored;
};
inline constexpr std::array<ItemType, 12> kItemTypes = {{
    {"CollectionFolder", "MediaBrowser.Controller.Entities.CollectionFolder"},
    {"Movie", "MediaBrowser.Controller.Entities.Movies.Movie"},
    {"Series", "MediaBrowser.Controller.Entities.TV.Series"},
    {"Season", "MediaBrowser.Controller.Entities.TV.Season"},
    {"Episode", "MediaBrowser.Controller.Entities.TV.Episode"},
    {"MusicArtist", "MediaBrowser.Controller.Entities.Audio.MusicArtist"},
    {"MusicAlbum", "MediaBrowser.Controller.Entities.Audio.MusicAlbum"},
    {"Audio", "MediaBrowser.Controller.Entities.Audio.Audio"},
    {"Person", "MediaBrowser.Controller.Entities.Person"},
    {"Genre", "MediaBrowser.Controller.Entities.Genre"},
    {"MusicGenre", "MediaBrowser.Controller.Entities.Audio.MusicGenre"},
    {"Studio", "MediaBrowser.Controller.Entities.Studio"},
}};

// "Movie" -> the stored name; "" when unknown.
inline std::string_view stored_type(std::string_view short_name) {
  for (const auto& t : kItemTypes)
    if (t.short_name == short_name) return t.stored;
  return {};
}
// The stored name -> "Movie"; the stored name itself when unknown.
inline std::string_view short_type(std::string_view stored) {
  for (const auto& t : kItemTypes)
    if (t.stored == stored) return t.short_name;
  return stored;
}

}  // namespace media_parity
