// The gate's premise: BEFORE and AFTER write byte-identical multistatus XML for every prop
// set, the XML carries what a REPORT must, and each declared lie does not match.
#include <gtest/gtest.h>

#include "carddav.hpp"

namespace {

using namespace carddav_report;

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = s.find(what); pos != std::string::npos; pos = s.find(what, pos + 1)) ++n;
  return n;
}

TEST(CarddavReport, IdenticalXmlForEveryPropSet) {
  const auto contacts = make_contacts(600);
  for (auto props : {PropSet::GetEtag, PropSet::GetEtagAddressData})
    EXPECT_EQ(before::handle_report(contacts, props), after::handle_report(contacts, props));
}

TEST(CarddavReport, OneResponsePerContactAndCardsOnlyWhenAsked) {
  const auto contacts = make_contacts(50);
  const auto etags = after::handle_report(contacts, PropSet::GetEtag);
  const auto cards = after::handle_report(contacts, PropSet::GetEtagAddressData);
  EXPECT_EQ(count(etags, "<D:response>"), 50u);
  EXPECT_EQ(count(etags, "BEGIN:VCARD"), 0u);
  EXPECT_EQ(count(cards, "BEGIN:VCARD\r\n"), 50u);
  EXPECT_EQ(count(cards, "END:VCARD\r\n"), 50u);
  EXPECT_NE(cards.find(contacts[7].uid + ".vcf</D:href>"), std::string::npos);
}

TEST(CarddavReport, TextIsXmlEscaped) {
  const auto xml = after::handle_report(make_contacts(100), PropSet::GetEtagAddressData);
  EXPECT_NE(xml.find("Smith &amp; Sons"), std::string::npos);
  EXPECT_NE(xml.find("&lt;Initech&gt;"), std::string::npos);
  EXPECT_EQ(xml.find("<Initech>"), std::string::npos);
  EXPECT_NE(xml.find("<D:getetag>&quot;"), std::string::npos);
}

TEST(CarddavReport, AddressBookIsDeterministic) {
  EXPECT_EQ(after::handle_report(make_contacts(80), PropSet::GetEtagAddressData),
            after::handle_report(make_contacts(80), PropSet::GetEtagAddressData));
}

TEST(CarddavReport, LieDropLastContactDiffers) {
  const auto contacts = make_contacts(40);
  Lies lies;
  lies.drop_last_contact = true;
  EXPECT_NE(before::handle_report(contacts, PropSet::GetEtag), after::handle_report(contacts, PropSet::GetEtag, lies));
}

TEST(CarddavReport, LieEmptyGetetagDiffers) {
  const auto contacts = make_contacts(40);
  Lies lies;
  lies.empty_getetag = true;
  EXPECT_NE(before::handle_report(contacts, PropSet::GetEtag), after::handle_report(contacts, PropSet::GetEtag, lies));
}

TEST(CarddavReport, LieSkipNoteLinesDiffers) {
  const auto contacts = make_contacts(40);
  Lies lies;
  lies.skip_note_lines = true;
  EXPECT_NE(before::handle_report(contacts, PropSet::GetEtagAddressData),
            after::handle_report(contacts, PropSet::GetEtagAddressData, lies));
}

TEST(CarddavReport, EditedBookShowsEveryWrite) {
  const auto contacts = make_contacts(40);
  const auto edited = edit_book(contacts);
  ASSERT_EQ(edited.size(), contacts.size());  // one deleted, one added
  for (auto props : {PropSet::GetEtag, PropSet::GetEtagAddressData}) {
    const auto xml = after::handle_report(edited, props);
    EXPECT_EQ(xml, before::handle_report(edited, props));
    EXPECT_NE(xml.find("<D:getetag>&quot;edited-20&quot;</D:getetag>"), std::string::npos);
    EXPECT_EQ(xml.find(contacts[13].uid), std::string::npos);  // n/3 deleted
    EXPECT_NE(xml.find("0000000add01.vcf</D:href>"), std::string::npos);
  }
  const auto cards = after::handle_report(edited, PropSet::GetEtagAddressData);
  EXPECT_NE(cards.find("FN:Dr. " + contacts[39].first_name), std::string::npos);
  EXPECT_EQ(count(cards, "NOTE:Edited after the REPORT"), 3u);
}

TEST(CarddavReport, LieMemoizedReportDiffersAfterEdits) {
  const auto contacts = make_contacts(40);
  const auto edited = edit_book(contacts);
  Lies lies;
  lies.memoized_report = true;
  for (auto props : {PropSet::GetEtag, PropSet::GetEtagAddressData}) {
    EXPECT_EQ(before::handle_report(contacts, props), after::handle_report(contacts, props, lies));
    EXPECT_NE(before::handle_report(edited, props), after::handle_report(edited, props, lies));
  }
}

}  // namespace
