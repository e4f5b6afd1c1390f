// .docx reading: the zip directory, inflate, and refusals of hostile
// archives (core/meetings/zip/).

#include "core/meetings/zip/docx.h"

#include <gtest/gtest.h>

#include "core/meetings/zip/zip_reader.h"
#include "tests/core/meetings/samples.h"

namespace ensemble::core::meetings::zip {
namespace {

const char kDocx[] = "meet-transcript.docx";

// Offset of word/document.xml's central directory entry.
size_t CentralEntry(const std::string& zip) {
  size_t at = zip.find(std::string("PK\x01\x02", 4));
  while (at != std::string::npos) {
    if (zip.compare(at + 46, 17, "word/document.xml") == 0) return at;
    at = zip.find(std::string("PK\x01\x02", 4), at + 4);
  }
  ADD_FAILURE() << "no central entry";
  return 0;
}

void Put32(std::string* s, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) (*s)[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

TEST(Docx, ReadsParagraphsTabsAndEntities) {
  auto text = DocxText(testing::ReadSample("Weekly_sync-20250314_100102-Meeting_Recording.docx"));
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_NE(text->find("Ana Silva\t0:03\n"), std::string::npos);
  EXPECT_NE(text->find("the Q2 budget & hiring.\n"), std::string::npos);  // Split runs joined.
}

TEST(Docx, XmlTextSkipsMarkupAndDecodesReferences) {
  EXPECT_EQ(DocumentXmlText("<w:p><w:r><w:t>a&lt;b&#233;&#x1F600;</w:t></w:r><w:r><w:br/><w:t xml:space=\"preserve\"> c </w:t></w:r></w:p>"
                            "<w:p><w:r><w:tab/><w:delText>gone</w:delText><w:t>d</w:t></w:r></w:p>"),
            "a<b\xC3\xA9\xF0\x9F\x98\x80\n c \n\td\n");
  EXPECT_EQ(DocumentXmlText("<w:t>unterminated"), "");
  EXPECT_EQ(DocumentXmlText("<w:t>&#xD800;&bogus;&#99999999;</w:t>"), "\xEF\xBF\xBD&bogus;&#99999999;");
}

TEST(Docx, RefusesDamagedArchives) {
  const std::string good = testing::ReadSample(kDocx);
  ASSERT_TRUE(DocxText(good).ok());

  // Cut anywhere: a clear error, never a crash.
  for (size_t cut : {size_t{0}, size_t{10}, good.size() / 2, good.size() - 23, good.size() - 1}) {
    auto r = DocxText(good.substr(0, cut));
    ASSERT_FALSE(r.ok()) << cut;
    EXPECT_EQ(r.status().code(), "INVALID_ARGUMENT");
  }

  std::string flipped = good;  // Compressed data corrupted.
  size_t data = flipped.find("word/document.xml") + 17 + 5;
  flipped[data] = static_cast<char>(flipped[data] ^ 0x55);
  flipped[data + 1] = static_cast<char>(flipped[data + 1] ^ 0x55);
  EXPECT_FALSE(DocxText(flipped).ok());

  std::string encrypted = good;
  encrypted[CentralEntry(good) + 8] |= 1;
  auto e = DocxText(encrypted);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message(), "The document is password-protected.");

  std::string method = good;
  method[CentralEntry(good) + 10] = 99;
  EXPECT_FALSE(DocxText(method).ok());

  std::string outside = good;  // Local header offset past the end.
  Put32(&outside, CentralEntry(good) + 42, 0x7FFFFFF0);
  EXPECT_FALSE(DocxText(outside).ok());
}

TEST(Docx, BoundsTheInflatedSize) {
  const std::string good = testing::ReadSample(kDocx);
  std::string bomb = good;  // Declares more than the cap: refused before inflating.
  Put32(&bomb, CentralEntry(good) + 24, kMaxDocumentXmlBytes + 1);
  auto r = DocxText(bomb);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("too large"), std::string::npos);

  std::string liar = good;  // Declares less than the stream holds: inflate stops at it.
  Put32(&liar, CentralEntry(good) + 24, 10);
  auto l = DocxText(liar);
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.status().code(), "INVALID_ARGUMENT");
}

TEST(Docx, ZipWithoutADocumentIsNotWord) {
  std::string good = testing::ReadSample(kDocx);
  std::string renamed = good;
  for (size_t at = renamed.find("word/document.xml"); at != std::string::npos;
       at = renamed.find("word/document.xml", at + 1)) {
    renamed[at] = 'x';
  }
  auto r = DocxText(renamed);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "This zip file is not a Word document (it has no word/document.xml).");
  EXPECT_EQ(ReadZipMember(good, "missing.xml", 100).status().code(), "NOT_FOUND");
}

}  // namespace
}  // namespace ensemble::core::meetings::zip
