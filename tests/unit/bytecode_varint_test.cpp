// The primitives of MLIR bytecode: prefix varints, zigzag varints, strings
// and sections, checked against encodings written out by hand from the
// format's description and against an encoder written here independently.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "frontend/bytecode/byte_reader.h"
#include "test_util.h"

namespace hlograph::frontend::bytecode {
namespace {

using hlograph::testing::HasSubstr;

// PrefixVarInt as the format describes it: n bytes hold 7n value bits above
// a prefix of n-1 zero bits and a one; nine bytes start with a zero byte.
std::vector<uint8_t> Encode(uint64_t v) {
  for (int n = 1; n <= 8; ++n) {
    if (n < 8 ? v < (uint64_t{1} << (7 * n)) : v < (uint64_t{1} << 56)) {
      uint64_t word = (v << n) | (uint64_t{1} << (n - 1));
      std::vector<uint8_t> out;
      for (int i = 0; i < n; ++i) out.push_back(static_cast<uint8_t>(word >> (8 * i)));
      return out;
    }
  }
  std::vector<uint8_t> out = {0};
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  return out;
}

uint64_t Decode(const std::vector<uint8_t>& bytes, size_t* consumed = nullptr) {
  ByteReader r(Bytes(bytes), 0, "test");
  uint64_t v = 0;
  Status s = r.ReadVarInt(v, "a value");
  EXPECT_TRUE(s.ok()) << s.message();
  if (consumed) *consumed = bytes.size() - r.remaining();
  return v;
}

TEST(BytecodeVarInt, HandWrittenEncodings) {
  EXPECT_EQ(Decode({0x01}), 0u);
  EXPECT_EQ(Decode({0x03}), 1u);
  EXPECT_EQ(Decode({0xFF}), 127u);
  EXPECT_EQ(Decode({0x02, 0x02}), 128u);         // (128 << 2) | 0b10
  EXPECT_EQ(Decode({0xFE, 0xFF}), 16383u);       // the largest two-byte value
  EXPECT_EQ(Decode({0x04, 0x00, 0x02}), 16384u); // (16384 << 3) | 0b100
  EXPECT_EQ(Decode({0x80, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}), (uint64_t{1} << 56) - 1);
  EXPECT_EQ(Decode({0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}), UINT64_MAX);
  EXPECT_EQ(Decode({0x00, 0x01, 0, 0, 0, 0, 0, 0, 0}), 1u);  // nine bytes may hold a small value too
}

TEST(BytecodeVarInt, RoundTripsEveryLength) {
  std::mt19937_64 rng(7);
  for (int bits = 0; bits <= 64; ++bits) {
    for (int k = 0; k < 20; ++k) {
      uint64_t v = bits == 0 ? 0 : (rng() >> (64 - bits)) | (uint64_t{1} << (bits - 1));
      std::vector<uint8_t> bytes = Encode(v);
      size_t consumed = 0;
      EXPECT_EQ(Decode(bytes, &consumed), v) << "bits " << bits;
      EXPECT_EQ(consumed, bytes.size());
    }
  }
}

TEST(BytecodeVarInt, SignedIsZigzag) {
  auto decode_signed = [](std::vector<uint8_t> bytes) {
    ByteReader r(Bytes(bytes), 0, "test");
    int64_t v = 0;
    EXPECT_TRUE(r.ReadSignedVarInt(v, "a value").ok());
    return v;
  };
  EXPECT_EQ(decode_signed({0x01}), 0);
  EXPECT_EQ(decode_signed({0x03}), -1);
  EXPECT_EQ(decode_signed({0x05}), 1);
  EXPECT_EQ(decode_signed({0x07}), -2);
  EXPECT_EQ(decode_signed(Encode(UINT64_MAX)), INT64_MIN);
  EXPECT_EQ(decode_signed(Encode(UINT64_MAX - 1)), INT64_MAX);
}

TEST(BytecodeVarInt, TruncationIsAnErrorNamingThePlace) {
  std::vector<uint8_t> bytes = Encode(uint64_t{1} << 40);  // six bytes
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::vector<uint8_t> part(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    ByteReader r(Bytes(part), 100, "string section");
    uint64_t v = 0;
    Status s = r.ReadVarInt(v, "the number of strings");
    ASSERT_FALSE(s.ok()) << n;
    EXPECT_TRUE(HasSubstr(s.message(), "string section, byte 100: expected the number of strings"));
  }
}

TEST(BytecodeVarInt, FlagAndStrings) {
  std::vector<uint8_t> bytes = Encode((21 << 1) | 1);
  bytes.insert(bytes.end(), {'a', 'b', 0, 'c'});
  ByteReader r(Bytes(bytes), 0, "test");
  uint64_t v = 0;
  bool flag = false;
  ASSERT_TRUE(r.ReadVarIntWithFlag(v, flag, "x").ok());
  EXPECT_EQ(v, 21u);
  EXPECT_TRUE(flag);
  std::string_view s;
  ASSERT_TRUE(r.ReadNullTerminated(s, "a name").ok());
  EXPECT_EQ(s, "ab");
  Status missing_nul = r.ReadNullTerminated(s, "a name");
  ASSERT_FALSE(missing_nul.ok());
  EXPECT_TRUE(HasSubstr(missing_nul.message(), "byte 4: expected a name ending in a NUL byte"));
}

TEST(BytecodeSection, LengthBeyondTheDataIsAnError) {
  // id 4 (IR), length 10, but only 2 bytes follow.
  std::vector<uint8_t> bytes = {0x04};
  std::vector<uint8_t> length = Encode(10);
  bytes.insert(bytes.end(), length.begin(), length.end());
  bytes.insert(bytes.end(), {1, 2});
  ByteReader r(Bytes(bytes), 0, "header");
  uint8_t id = 0;
  ByteReader contents(Bytes(), 0, "");
  Status s = r.ReadSection(id, contents);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(HasSubstr(s.message(), "expected the IR section of 10 bytes, found 2 bytes left"));
}

TEST(BytecodeSection, AlignmentPaddingIsChecked) {
  // id 1 with the alignment bit, length 1, alignment 4: padding to offset 4 must be 0xCB.
  std::vector<uint8_t> good = {0x81, Encode(1)[0], Encode(4)[0], 0xCB, 42};
  ByteReader r(Bytes(good), 0, "header");
  uint8_t id = 0;
  ByteReader contents(Bytes(), 0, "");
  ASSERT_TRUE(r.ReadSection(id, contents).ok());
  EXPECT_EQ(id, kDialectSection);
  EXPECT_EQ(contents.offset(), 4u);
  std::vector<uint8_t> bad = good;
  bad[3] = 0x00;
  ByteReader r2(Bytes(bad), 0, "header");
  Status s = r2.ReadSection(id, contents);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(HasSubstr(s.message(), "byte 3: expected alignment padding byte 0xCB"));
}

}  // namespace
}  // namespace hlograph::frontend::bytecode
