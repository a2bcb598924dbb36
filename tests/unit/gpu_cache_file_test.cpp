// The on-disk cache's files: SHA-256 against FIPS 180-2's published
// vectors, entries that round-trip, and every damaged file read as a miss.
#include "backends/gpu/runtime/cache_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

namespace hlograph::gpu {
namespace {

namespace fs = std::filesystem;

TEST(CacheFile, Sha256MatchesPublishedVectors) {
  EXPECT_EQ(Hex(Sha256Of("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Hex(Sha256Of("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Hex(Sha256Of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  Sha256 a, b;  // fields carry their lengths
  a.UpdateField("ab");
  a.UpdateField("c");
  b.UpdateField("a");
  b.UpdateField("bc");
  EXPECT_NE(a.Finish(), b.Finish());
}

class CacheFileEntries : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "hlograph-cache-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string Contents(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  void Overwrite(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  fs::path dir_;
};

TEST_F(CacheFileEntries, RoundTripAndEveryDamageIsAMiss) {
  const Digest key = Sha256Of("the key");
  const fs::path path = CacheEntryPath(dir_ / "sub", "test", key, ".entry");
  EXPECT_EQ(path.filename().string(), "test-" + Hex(key) + ".entry");
  EXPECT_FALSE(ReadCacheEntry(path, "HLGTEST1", key).has_value());  // none yet
  WriteCacheEntry(path, "HLGTEST1", key, "payload bytes");
  ASSERT_EQ(ReadCacheEntry(path, "HLGTEST1", key).value_or(""), "payload bytes");
  EXPECT_FALSE(ReadCacheEntry(path, "HLGOTHER", key).has_value());                // another kind
  EXPECT_FALSE(ReadCacheEntry(path, "HLGTEST1", Sha256Of("other")).has_value());  // another key
  const std::string good = Contents(path);
  Overwrite(path, good.substr(0, good.size() - 1));  // truncated
  EXPECT_FALSE(ReadCacheEntry(path, "HLGTEST1", key).has_value());
  std::string flipped = good;
  flipped.back() ^= 1;  // the payload no longer matches its checksum
  Overwrite(path, flipped);
  EXPECT_FALSE(ReadCacheEntry(path, "HLGTEST1", key).has_value());
  Overwrite(path, good + "x");  // longer than it says
  EXPECT_FALSE(ReadCacheEntry(path, "HLGTEST1", key).has_value());
  // No temporary file is left beside the entry.
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir_ / "sub")) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);
}

}  // namespace
}  // namespace hlograph::gpu
