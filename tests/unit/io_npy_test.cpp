// .npy/.npz reading and writing (src/io) and the conversion to interpreter
// tensors. Ground truth: byte sequences written by numpy 2.5 with ml_dtypes
// 0.6 (np.save, np.savez, np.savez_compressed), pasted below as hex; the
// expected values were read back with numpy. The tests need no Python.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cpu/tensor.h"
#include "io/npy.h"
#include "io/npz.h"
#include "ir/type.h"

namespace hlograph::io {
namespace {

using E = ir::ElementType;
namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// numpy output.

// np.save: np.asfortranarray(np.arange(6, dtype='<f4').reshape(2, 3))
const char kFortranF4[] =
    "934e554d5059010076007b276465736372273a20273c6634272c2027666f727472616e5f6f72646572273a2054727565"
    "2c20277368617065273a2028322c2033292c207d20202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a00000000000040400000803f00008040"
    "000000400000a040";

// np.save: np.array([[1, -2, 3], [0x01020304, -1, 7]], dtype='>i4')
const char kBigEndianI4[] =
    "934e554d5059010076007b276465736372273a20273e6934272c2027666f727472616e5f6f72646572273a2046616c73"
    "652c20277368617065273a2028322c2033292c207d202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a00000001fffffffe0000000301020304"
    "ffffffff00000007";

// np.save: np.array([True, False, True, True])
const char kBool[] =
    "934e554d5059010076007b276465736372273a20277c6231272c2027666f727472616e5f6f72646572273a2046616c73"
    "652c20277368617065273a2028342c292c207d2020202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a01000101";

// np.save: np.array([1.0, -2.5, 0.1, 65280], dtype=ml_dtypes.bfloat16)  (bits 0x3f80 0xc020 0x3dcd 0x477f)
const char kBf16[] =
    "934e554d5059010076007b276465736372273a20273c5632272c2027666f727472616e5f6f72646572273a2046616c73"
    "652c20277368617065273a2028342c292c207d2020202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a803f20c0cd3d7f47";

// np.save: np.float64(3.25)
const char kScalarF8[] =
    "934e554d5059010076007b276465736372273a20273c6638272c2027666f727472616e5f6f72646572273a2046616c73"
    "652c20277368617065273a2028292c207d20202020202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a0000000000000a40";

// np.save: np.array([1+2j, -3.5-0.25j], dtype=np.complex64)
const char kComplex64[] =
    "934e554d5059010076007b276465736372273a20273c6338272c2027666f727472616e5f6f72646572273a2046616c73"
    "652c20277368617065273a2028322c292c207d2020202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a0000803f00000040000060c0000080be";

// np.save: np.array([-8, -1, 0, 7], dtype=ml_dtypes.int4)  (bytes 8 15 0 7)
const char kInt4[] =
    "934e554d5059010076007b276465736372273a20273c5631272c2027666f727472616e5f6f72646572273a2046616c73"
    "652c20277368617065273a2028342c292c207d2020202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a080f0007";

// np.save: np.array([1.0, -2.0, 0.5], dtype=ml_dtypes.float8_e5m2)  (bits 0x3c 0xc0 0x38)
const char kE5m2[] =
    "934e554d5059010076007b276465736372273a20273c6631272c2027666f727472616e5f6f72646572273a2046616c73"
    "652c20277368617065273a2028332c292c207d2020202020202020202020202020202020202020202020202020202020"
    "202020202020202020202020202020202020202020202020202020202020200a3cc038";

// np.savez: (np.arange(3, dtype=np.int32), w=np.array([[1.5, 2], [3, 4]], dtype='>f8'));
// numpy stores the keyword arrays first: 'w.npy', then 'arr_0.npy'
const char kNpzTwo[] =
    "504b03042d00000000000000210023f34b0dffffffffffffffff05001400772e6e707901001000a000000000000000a0"
    "00000000000000934e554d5059010076007b276465736372273a20273e6638272c2027666f727472616e5f6f72646572"
    "273a2046616c73652c20277368617065273a2028322c2032292c207d2020202020202020202020202020202020202020"
    "20202020202020202020202020202020202020202020202020202020202020202020202020200a3ff800000000000040"
    "0000000000000040080000000000004010000000000000504b03042d00000000000000210002ecbda9ffffffffffffff"
    "ff090014006172725f302e6e7079010010008c000000000000008c00000000000000934e554d5059010076007b276465"
    "736372273a20273c6934272c2027666f727472616e5f6f72646572273a2046616c73652c20277368617065273a202833"
    "2c292c207d20202020202020202020202020202020202020202020202020202020202020202020202020202020202020"
    "20202020202020202020202020202020200a000000000100000002000000504b01022d032d00000000000000210023f3"
    "4b0da0000000a0000000050000000000000000000000800100000000772e6e7079504b01022d032d0000000000000021"
    "0002ecbda98c0000008c0000000900000000000000000000008001d70000006172725f302e6e7079504b050600000000"
    "020002006a0000009e0100000000";

// np.savez_compressed: (np.zeros((4, 5), np.float32), np.arange(10, dtype=np.int64))
const char kNpzCompressed[] =
    "504b03042d000000080000002100fbe58534ffffffffffffffff090014006172725f302e6e707901001000d000000000"
    "00000049000000000000009bec17ea1b10c9c850c650ad9e925a9c5ca46ea5a06e9366a2aea3a09e965f54529498179f"
    "5f94920a12774bcc294e058a17672416a402f91a263a0aa69a3a0ab50a64032e062a0300504b03042d00000008000000"
    "21003c08290effffffffffffffff090014006172725f312e6e707901001000d0000000000000005f000000000000009b"
    "ec17ea1b10c9c850c650ad9e925a9c5ca46ea5a06e9369a1aea3a09e965f54529498179f5f94920a12774bcc294e058a"
    "17672416a402f91a86063a9a3a0ab50ae4032e06286084d24c509a194ab340695628cd06a5d9a1340794e684d200504b"
    "01022d032d000000080000002100fbe5853449000000d00000000900000000000000000000008001000000006172725f"
    "302e6e7079504b01022d032d0000000800000021003c08290e5f000000d0000000090000000000000000000000800184"
    "0000006172725f312e6e7079504b050600000000020002006e0000001e0100000000";

// np.savez_compressed to an unseekable stream (data descriptors): x=np.array([1, 2, 3], np.uint16)
const char kNpzDescriptor[] =
    "504b03042d00080008000000210000000000ffffffffffffffff05001400782e6e707901001000000000000000000000"
    "000000000000009bec17ea1b10c9c850c650ad9e925a9c5ca46ea5a06e536aa4aea3a09e965f54529498179f5f94920a"
    "12774bcc294e058a17672416a402f91ac63a9a3a0ab50a14002e46062606660600504b070857ca31ab4a000000000000"
    "008600000000000000504b01022d032d00080008000000210057ca31ab4a000000860000000500000000000000000000"
    "00800100000000782e6e7079504b0506000000000100010033000000990000000000";

// np.savez of no arrays
const char kNpzEmpty[] = "504b0506000000000000000000000000000000000000";

// ---------------------------------------------------------------------------
// Helpers.

std::string FromHex(const char* hex) {
  std::string out;
  for (size_t i = 0; hex[i] && hex[i + 1]; i += 2) {
    out += static_cast<char>(std::stoi(std::string(hex + i, 2), nullptr, 16));
  }
  return out;
}

template <typename T>
std::vector<T> Values(const cpu::Tensor& t) {
  std::vector<T> v(static_cast<size_t>(t.num_elements()));
  if (!v.empty()) std::memcpy(v.data(), t.bytes(), v.size() * sizeof(T));
  return v;
}

template <typename T>
std::vector<T> Values(const NpyArray& a) {
  std::vector<T> v(a.data.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), a.data.data(), v.size() * sizeof(T));
  return v;
}

template <typename T>
NpyArray Array(const std::string& descr, std::vector<int64_t> shape, const std::vector<T>& values,
               bool fortran = false) {
  NpyArray a;
  a.descr = descr;
  a.fortran_order = fortran;
  a.shape = std::move(shape);
  a.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(a.data.data(), values.data(), a.data.size());
  return a;
}

ir::Type T(E e, std::vector<int64_t> shape) { return ir::Type::Tensor(e, std::move(shape)); }

NpyArray ParseOk(const std::string& bytes) {
  auto a = ParseNpy(std::string_view(bytes), "t.npy");
  if (!a.ok()) {
    ADD_FAILURE() << a.status().message();
    return {};
  }
  return std::move(a.value());
}

cpu::Tensor ToTensorOk(const NpyArray& a, const ir::Type& type) {
  auto t = ToTensor(a, type, "argument 0 (x)");
  if (!t.ok()) {
    ADD_FAILURE() << t.status().message();
    return cpu::Tensor(type);
  }
  return std::move(t.value());
}

std::string NpyError(const std::string& bytes) {
  auto a = ParseNpy(std::string_view(bytes), "t.npy");
  return a.ok() ? std::string("<parsed fine>") : a.status().message();
}

std::string NpzError(const std::string& bytes) {
  auto a = ParseNpz(bytes, "t.npz");
  return a.ok() ? std::string("<parsed fine>") : a.status().message();
}

std::string ConvertError(const NpyArray& a, const ir::Type& type) {
  auto t = ToTensor(a, type, "argument 2 (arr_2)");
  return t.ok() ? std::string("<converted fine>") : t.status().message();
}

::testing::AssertionResult HasSubstr(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected to find\n  " << part << "\nin\n  " << text;
}

// A .npy file with the given header dict text (version 1.0, unpadded).
std::string NpyWithHeader(const std::string& dict, const std::string& data = "") {
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict + data;
}

uint32_t Le32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(s[at + static_cast<size_t>(i)]);
  return v;
}
void SetLe(std::string& s, size_t at, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s[at + static_cast<size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
}
// Offset of the `nth` occurrence of a ZIP record signature.
size_t FindSig(const std::string& s, uint32_t sig, size_t nth = 0) {
  for (size_t i = 0; i + 4 <= s.size(); ++i) {
    if (Le32(s, i) == sig && nth-- == 0) return i;
  }
  ADD_FAILURE() << "signature not found";
  return 0;
}
constexpr uint32_t kLocal = 0x04034b50, kCentral = 0x02014b50, kEnd = 0x06054b50, kEnd64 = 0x06064b50;

// A scratch directory, removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = fs::temp_directory_path() / ("hlograph_io_test_" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string File(const std::string& name) const { return (path_ / name).string(); }
  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  fs::path path_;
};

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
void WriteAll(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

// ---------------------------------------------------------------------------
// Reading numpy's files.

TEST(IoNpyNumpy, FortranOrder) {
  const std::string bytes = FromHex(kFortranF4);
  NpyArray a = ParseOk(bytes);
  EXPECT_EQ(a.descr, "<f4");
  EXPECT_TRUE(a.fortran_order);
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<float>(a), (std::vector<float>{0, 3, 1, 4, 2, 5}));  // column-major in the file
  EXPECT_EQ(Values<float>(ToTensorOk(a, T(E::kF32, {2, 3}))), (std::vector<float>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(SerializeNpy(a), bytes);  // the header exactly as numpy writes it
}

TEST(IoNpyNumpy, BigEndian) {
  const std::string bytes = FromHex(kBigEndianI4);
  NpyArray a = ParseOk(bytes);
  EXPECT_EQ(a.descr, ">i4");
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<int32_t>(ToTensorOk(a, T(E::kI32, {2, 3}))),
            (std::vector<int32_t>{1, -2, 3, 0x01020304, -1, 7}));
  EXPECT_EQ(SerializeNpy(a), bytes);
}

TEST(IoNpyNumpy, Bool) {
  const std::string bytes = FromHex(kBool);
  NpyArray a = ParseOk(bytes);
  EXPECT_EQ(a.descr, "|b1");
  cpu::Tensor t = ToTensorOk(a, T(E::kI1, {4}));
  EXPECT_EQ(Values<uint8_t>(t), (std::vector<uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(SerializeNpy(FromTensor(t)), bytes);  // FromTensor writes what numpy writes
}

TEST(IoNpyNumpy, Bfloat16) {
  const std::string bytes = FromHex(kBf16);
  NpyArray a = ParseOk(bytes);
  EXPECT_EQ(a.descr, "<V2");
  cpu::Tensor t = ToTensorOk(a, T(E::kBF16, {4}));
  EXPECT_EQ(Values<uint16_t>(t), (std::vector<uint16_t>{0x3f80, 0xc020, 0x3dcd, 0x477f}));
  EXPECT_EQ(SerializeNpy(FromTensor(t)), bytes);
}

TEST(IoNpyNumpy, ScalarFloat64) {
  const std::string bytes = FromHex(kScalarF8);
  NpyArray a = ParseOk(bytes);
  EXPECT_EQ(a.descr, "<f8");
  EXPECT_TRUE(a.shape.empty());
  cpu::Tensor t = ToTensorOk(a, T(E::kF64, {}));
  EXPECT_EQ(Values<double>(t), (std::vector<double>{3.25}));
  EXPECT_EQ(SerializeNpy(FromTensor(t)), bytes);
}

TEST(IoNpyNumpy, Complex64) {
  const std::string bytes = FromHex(kComplex64);
  NpyArray a = ParseOk(bytes);
  EXPECT_EQ(a.descr, "<c8");
  cpu::Tensor t = ToTensorOk(a, T(E::kC64, {2}));
  EXPECT_EQ(Values<std::complex<float>>(t),
            (std::vector<std::complex<float>>{{1.0f, 2.0f}, {-3.5f, -0.25f}}));
  EXPECT_EQ(SerializeNpy(FromTensor(t)), bytes);
}

TEST(IoNpyNumpy, Int4) {
  const std::string bytes = FromHex(kInt4);
  NpyArray a = ParseOk(bytes);
  EXPECT_EQ(a.descr, "<V1");
  EXPECT_EQ(Values<uint8_t>(a), (std::vector<uint8_t>{8, 15, 0, 7}));  // ml_dtypes: the low 4 bits
  cpu::Tensor t = ToTensorOk(a, T(E::kI4, {4}));
  EXPECT_EQ(Values<int8_t>(t), (std::vector<int8_t>{-8, -1, 0, 7}));  // the interpreter: sign-extended
  EXPECT_EQ(SerializeNpy(FromTensor(t)), bytes);
}

TEST(IoNpyNumpy, Float8E5M2SavedAsF1) {
  NpyArray a = ParseOk(FromHex(kE5m2));
  EXPECT_EQ(a.descr, "<f1");
  EXPECT_EQ(Values<uint8_t>(ToTensorOk(a, T(E::kF8E5M2, {3}))), (std::vector<uint8_t>{0x3c, 0xc0, 0x38}));
  // Written back as '<V1', which numpy.load can read (it rejects '<f1').
  EXPECT_EQ(FromTensor(ToTensorOk(a, T(E::kF8E5M2, {3}))).descr, "<V1");
}

TEST(IoNpzNumpy, TwoArrays) {
  auto arrays = ParseNpz(FromHex(kNpzTwo), "t.npz");
  ASSERT_TRUE(arrays.ok()) << arrays.status().message();
  ASSERT_EQ(arrays->size(), 2u);
  EXPECT_EQ((*arrays)[0].first, "w");
  EXPECT_EQ((*arrays)[0].second.descr, ">f8");
  EXPECT_EQ(Values<double>(ToTensorOk((*arrays)[0].second, T(E::kF64, {2, 2}))),
            (std::vector<double>{1.5, 2, 3, 4}));
  EXPECT_EQ((*arrays)[1].first, "arr_0");
  EXPECT_EQ((*arrays)[1].second.descr, "<i4");
  EXPECT_EQ(Values<int32_t>(ToTensorOk((*arrays)[1].second, T(E::kI32, {3}))), (std::vector<int32_t>{0, 1, 2}));
}

TEST(IoNpzNumpy, Compressed) {
  auto arrays = ParseNpz(FromHex(kNpzCompressed), "t.npz");
  ASSERT_TRUE(arrays.ok()) << arrays.status().message();
  ASSERT_EQ(arrays->size(), 2u);
  EXPECT_EQ((*arrays)[0].first, "arr_0");
  EXPECT_EQ(Values<float>(ToTensorOk((*arrays)[0].second, T(E::kF32, {4, 5}))), std::vector<float>(20, 0.0f));
  EXPECT_EQ((*arrays)[1].first, "arr_1");
  EXPECT_EQ(Values<int64_t>(ToTensorOk((*arrays)[1].second, T(E::kI64, {10}))),
            (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(IoNpzNumpy, DataDescriptors) {
  auto arrays = ParseNpz(FromHex(kNpzDescriptor), "t.npz");
  ASSERT_TRUE(arrays.ok()) << arrays.status().message();
  ASSERT_EQ(arrays->size(), 1u);
  EXPECT_EQ((*arrays)[0].first, "x");
  EXPECT_EQ(Values<uint16_t>(ToTensorOk((*arrays)[0].second, T(E::kU16, {3}))), (std::vector<uint16_t>{1, 2, 3}));
}

TEST(IoNpzNumpy, Empty) {
  auto arrays = ParseNpz(FromHex(kNpzEmpty), "t.npz");
  ASSERT_TRUE(arrays.ok()) << arrays.status().message();
  EXPECT_TRUE(arrays->empty());
  auto written = SerializeNpz({});
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(*written, FromHex(kNpzEmpty));
}

// ---------------------------------------------------------------------------
// The writer: header layout and round trips.

TEST(IoNpyWrite, HeaderIsAlignedAndEndsWithNewline) {
  for (int rank = 0; rank < 40; ++rank) {
    NpyArray a;
    a.descr = "<f4";
    a.shape.assign(static_cast<size_t>(rank), 1);
    if (rank > 0) a.shape[0] = 123456789012;  // long first dimension, empty array
    if (rank > 1) a.shape[1] = 0;
    const std::string h = NpyHeader(a);
    EXPECT_EQ(h.size() % 64, 0u) << rank;
    EXPECT_EQ(h.back(), '\n');
    EXPECT_EQ(h[6], '\x01');
    if (rank >= 2) {  // empty arrays: the header is the whole file
      NpyArray b = ParseOk(h);
      EXPECT_EQ(b.shape, a.shape);
    }
  }
}

TEST(IoNpyWrite, Version2ForLongHeaders) {
  NpyArray a;
  a.descr = "|u1";
  a.shape.assign(30000, 1);  // "1, " 30000 times: past 65535 bytes
  a.data = {42};
  const std::string bytes = SerializeNpy(a);
  EXPECT_EQ(bytes[6], '\x02');
  EXPECT_EQ((bytes.size() - 1) % 64, 0u);
  NpyArray b = ParseOk(bytes);
  EXPECT_EQ(b.shape.size(), 30000u);
  EXPECT_EQ(b.data, a.data);
}

TEST(IoNpyWrite, ReadsVersion3) {
  std::string bytes = SerializeNpy(Array<float>("<f4", {2}, {1, 2}));
  // Version 3.0 is 2.0 with a UTF-8 header: a 4-byte length.
  const std::string header = bytes.substr(10, bytes.size() - 18);
  std::string v3("\x93NUMPY\x03\x00", 8);
  v3 += std::string("\0\0\0\0", 4);
  SetLe(v3, 8, header.size(), 4);
  v3 += header + bytes.substr(bytes.size() - 8);
  EXPECT_EQ(Values<float>(ParseOk(v3)), (std::vector<float>{1, 2}));
}

// A tensor of `type` whose bytes are valid values of its element type.
cpu::Tensor SampleTensor(const ir::Type& type) {
  cpu::Tensor t(type);
  const E e = type.element();
  const int bits = ir::BitWidth(e);
  uint8_t* p = t.mutable_bytes();
  for (size_t i = 0; i < t.byte_size(); ++i) {
    uint8_t b = static_cast<uint8_t>(i * 37 + 11);
    if (e == E::kI1) b &= 1;
    if (e == E::kU2 || e == E::kU4 || e == E::kF4E2M1FN || e == E::kF6E2M3FN || e == E::kF6E3M2FN) {
      b &= static_cast<uint8_t>((1 << bits) - 1);
    }
    if (e == E::kI2 || e == E::kI4) {  // sign-extended
      b &= static_cast<uint8_t>((1 << bits) - 1);
      if (b >= (1 << (bits - 1))) b = static_cast<uint8_t>(b - (1 << bits));
    }
    if (e == E::kTF32 && i % 4 >= 2) b = (i % 4 == 2) ? (b & 0x07) : 0;  // 19 bits
    p[i] = b;
  }
  return t;
}

TEST(IoNpyWrite, EveryElementTypeRoundTrips) {
  for (int k = 0; k <= static_cast<int>(E::kC128); ++k) {
    const E e = static_cast<E>(k);
    SCOPED_TRACE(std::string(ir::ElementTypeName(e)));
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{}, {5}, {2, 3, 4}, {0, 3}}) {
      const ir::Type type = T(e, shape);
      const cpu::Tensor t = SampleTensor(type);
      const NpyArray a = FromTensor(t);
      EXPECT_TRUE(CheckNpyArray(a).ok());
      const NpyArray b = ParseOk(SerializeNpy(a));
      EXPECT_EQ(b.descr, a.descr);
      EXPECT_EQ(b.shape, shape);
      const cpu::Tensor back = ToTensorOk(b, type);
      ASSERT_EQ(back.byte_size(), t.byte_size());
      if (t.byte_size()) {
        EXPECT_EQ(std::memcmp(back.bytes(), t.bytes(), t.byte_size()), 0);
      }
    }
  }
}

TEST(IoNpyWrite, DescrsMatchNumpy) {
  auto descr = [](E e) { return FromTensor(cpu::Tensor(T(e, {1}))).descr; };
  EXPECT_EQ(descr(E::kI1), "|b1");
  EXPECT_EQ(descr(E::kI8), "|i1");
  EXPECT_EQ(descr(E::kU8), "|u1");
  EXPECT_EQ(descr(E::kI16), "<i2");
  EXPECT_EQ(descr(E::kU32), "<u4");
  EXPECT_EQ(descr(E::kI64), "<i8");
  EXPECT_EQ(descr(E::kF16), "<f2");
  EXPECT_EQ(descr(E::kF32), "<f4");
  EXPECT_EQ(descr(E::kF64), "<f8");
  EXPECT_EQ(descr(E::kC64), "<c8");
  EXPECT_EQ(descr(E::kC128), "<c16");
  EXPECT_EQ(descr(E::kBF16), "<V2");
  EXPECT_EQ(descr(E::kF8E4M3FN), "<V1");
  EXPECT_EQ(descr(E::kU4), "<V1");
  EXPECT_EQ(descr(E::kF4E2M1FN), "<V1");
}

TEST(IoNpz, WriteReadRoundTrip) {
  NamedArrays arrays;
  arrays.emplace_back("arr_0", Array<float>("<f4", {2, 2}, {1, 2, 3, 4}));
  arrays.emplace_back("arr_1", Array<int64_t>("<i8", {}, {-7}));
  arrays.emplace_back("empty", Array<double>("<f8", {0, 5}, {}));
  arrays.emplace_back("dir/nested", Array<uint8_t>("|b1", {3}, {1, 0, 1}));
  arrays.emplace_back("f", Array<float>("<f4", {2, 3}, {0, 3, 1, 4, 2, 5}, /*fortran=*/true));
  for (bool zip64 : {false, true}) {
    SCOPED_TRACE(zip64 ? "zip64" : "plain");
    NpzWriteOptions options;
    options.force_zip64 = zip64;
    auto bytes = SerializeNpz(arrays, options);
    ASSERT_TRUE(bytes.ok()) << bytes.status().message();
    if (zip64) {
      const size_t end = FindSig(*bytes, kEnd);
      EXPECT_EQ(Le32(*bytes, end + 8), 0xffffffffu);  // both entry counts defer to the ZIP64 record
      EXPECT_LT(FindSig(*bytes, kEnd64), end);
    }
    auto back = ParseNpz(*bytes, "t.npz");
    ASSERT_TRUE(back.ok()) << back.status().message();
    ASSERT_EQ(back->size(), arrays.size());
    for (size_t i = 0; i < arrays.size(); ++i) {
      EXPECT_EQ((*back)[i].first, arrays[i].first);
      EXPECT_EQ((*back)[i].second.descr, arrays[i].second.descr);
      EXPECT_EQ((*back)[i].second.fortran_order, arrays[i].second.fortran_order);
      EXPECT_EQ((*back)[i].second.shape, arrays[i].second.shape);
      EXPECT_EQ((*back)[i].second.data, arrays[i].second.data);
    }
    EXPECT_EQ(Values<float>(ToTensorOk((*back)[4].second, T(E::kF32, {2, 3}))),
              (std::vector<float>{0, 1, 2, 3, 4, 5}));
  }
}

TEST(IoNpz, WriterRejectsBadArrays) {
  NamedArrays dup;
  dup.emplace_back("a", Array<float>("<f4", {1}, {1}));
  dup.emplace_back("a", Array<float>("<f4", {1}, {2}));
  EXPECT_TRUE(HasSubstr(SerializeNpz(dup).status().message(), "two arrays are named 'a'"));
  NamedArrays short_data;
  short_data.emplace_back("a", Array<float>("<f4", {3}, {1, 2}));
  EXPECT_TRUE(HasSubstr(SerializeNpz(short_data).status().message(), "needs 12 bytes of data but the array has 8"));
  NamedArrays bad_descr;
  bad_descr.emplace_back("a", Array<float>("<f4', 'x': (", {1}, {1}));
  EXPECT_TRUE(HasSubstr(SerializeNpz(bad_descr).status().message(), "unsupported dtype"));
}

// ---------------------------------------------------------------------------
// Files: all or nothing.

TEST(IoFiles, NpzAndNpyRoundTrip) {
  TempDir dir;
  NamedArrays arrays;
  arrays.emplace_back("arr_0", Array<int32_t>("<i4", {3}, {5, 6, 7}));
  ASSERT_TRUE(WriteNpz(dir.File("out.npz"), arrays).ok());
  auto back = ReadNpz(dir.File("out.npz"));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ((*back)[0].second.data, arrays[0].second.data);

  ASSERT_TRUE(WriteNpy(dir.File("a.npy"), arrays[0].second).ok());
  auto one = ReadNpy(dir.File("a.npy"));
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_EQ(one->data, arrays[0].second.data);
  EXPECT_EQ(ReadAll(dir.File("a.npy")), SerializeNpy(arrays[0].second));
  // Nothing else is left in the directory.
  EXPECT_EQ(dir.Names(), (std::vector<std::string>{"a.npy", "out.npz"}));
}

TEST(IoFiles, OverwritesExistingFile) {
  TempDir dir;
  WriteAll(dir.File("out.npz"), "old contents");
  NamedArrays arrays;
  arrays.emplace_back("arr_0", Array<float>("<f4", {1}, {1}));
  ASSERT_TRUE(WriteNpz(dir.File("out.npz"), arrays).ok());
  EXPECT_EQ(ReadAll(dir.File("out.npz")), *SerializeNpz(arrays));
}

TEST(IoFiles, FailedWriteLeavesNothingBehind) {
  TempDir dir;
  WriteAll(dir.File("out.npz"), "old contents");
  NamedArrays bad;
  bad.emplace_back("arr_0", Array<float>("<f4", {1}, {1}));
  bad.emplace_back("arr_1", Array<float>("<f4", {4}, {1}));  // data too short
  Status s = WriteNpz(dir.File("out.npz"), bad);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(HasSubstr(s.message(), "cannot write '" + dir.File("out.npz") + "': array 'arr_1'"));
  EXPECT_EQ(ReadAll(dir.File("out.npz")), "old contents");
  EXPECT_EQ(dir.Names(), (std::vector<std::string>{"out.npz"}));

  s = WriteNpy(dir.File("x.npy"), bad[1].second);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(dir.Names(), (std::vector<std::string>{"out.npz"}));

  s = WriteNpz(dir.File("no/such/dir/out.npz"), {});
  EXPECT_TRUE(HasSubstr(s.message(), "cannot write '" + dir.File("no/such/dir/out.npz") + "'")) << s.message();
  EXPECT_EQ(dir.Names(), (std::vector<std::string>{"out.npz"}));
}

TEST(IoFiles, ReadErrorsNameTheFile) {
  TempDir dir;
  EXPECT_TRUE(HasSubstr(ReadNpz(dir.File("missing.npz")).status().message(),
                        "cannot open '" + dir.File("missing.npz") + "': No such file or directory"));
  EXPECT_TRUE(HasSubstr(ReadNpy(dir.File("missing.npy")).status().message(), "missing.npy"));
  fs::create_directories(dir.File("d.npy"));
  EXPECT_TRUE(HasSubstr(ReadNpy(dir.File("d.npy")).status().message(), "is a directory"));
  WriteAll(dir.File("text.npz"), "hello, this is not a zip file at all");
  EXPECT_TRUE(HasSubstr(ReadNpz(dir.File("text.npz")).status().message(),
                        dir.File("text.npz") + ": not a ZIP (.npz) file"));
  WriteAll(dir.File("text.npy"), "hello");
  EXPECT_TRUE(HasSubstr(ReadNpy(dir.File("text.npy")).status().message(), dir.File("text.npy") + ": not a .npy file"));
}

// ---------------------------------------------------------------------------
// Conversion: dtype and shape checks, layouts.

TEST(IoConvert, DtypeMismatchNamesTheArgument) {
  const NpyArray f64 = Array<double>("<f8", {2}, {1, 2});
  EXPECT_EQ(ConvertError(f64, T(E::kF32, {2})),
            "argument 2 (arr_2) has dtype float64 but the function expects f32 (numpy: float32)");
  EXPECT_TRUE(HasSubstr(ConvertError(Array<double>(">f8", {2}, {1, 2}), T(E::kF32, {2})),
                        "has dtype float64 (big-endian) but the function expects f32"));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<uint16_t>("<f2", {1}, {0}), T(E::kBF16, {1})),
                        "has dtype float16 but the function expects bf16 (numpy: ml_dtypes.bfloat16"));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<uint16_t>("<V2", {1}, {0}), T(E::kF16, {1})),
                        "has dtype '<V2' (2-byte void) but the function expects f16"));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<int32_t>("<i4", {1}, {0}), T(E::kU32, {1})),
                        "has dtype int32 but the function expects ui32"));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<uint8_t>("|u1", {1}, {0}), T(E::kI1, {1})),
                        "has dtype uint8 but the function expects i1 (numpy: bool)"));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<uint8_t>("|S1", {1}, {0}), T(E::kI8, {1})),
                        "has dtype '|S1' (bytes) but the function expects i8"));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<uint16_t>("<V2", {1}, {0}), T(E::kF8E4M3FN, {1})),
                        "expects f8E4M3FN"));
}

TEST(IoConvert, ShapeMismatch) {
  const NpyArray a = Array<float>("<f4", {3, 4}, std::vector<float>(12));
  EXPECT_EQ(ConvertError(a, T(E::kF32, {4, 3})),
            "argument 2 (arr_2) has shape (3, 4) but the function expects tensor<4x3xf32>");
  EXPECT_TRUE(HasSubstr(ConvertError(Array<float>("<f4", {1}, {1}), T(E::kF32, {})),
                        "has shape (1,) but the function expects tensor<f32>"));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<float>("<f4", {}, {1}), T(E::kF32, {1})),
                        "has shape () but the function expects tensor<1xf32>"));
}

TEST(IoConvert, NonTensorAndInconsistentArrays) {
  EXPECT_TRUE(HasSubstr(ConvertError(Array<float>("<f4", {}, {1}), ir::Type::Tuple({T(E::kF32, {})})),
                        "argument 2 (arr_2): the function expects tuple<tensor<f32>>"));
  NpyArray short_data = Array<float>("<f4", {2}, {1});
  EXPECT_TRUE(HasSubstr(ConvertError(short_data, T(E::kF32, {2})), "needs 8 bytes of data but the array has 4"));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<float>("<q4", {1}, {1}), T(E::kF32, {1})), "unsupported dtype '<q4'"));
}

TEST(IoConvert, ByteOrders) {
  // '<', '=', '|' (for one-byte types) need no swapping on a little-endian host.
  EXPECT_EQ(Values<int16_t>(ToTensorOk(Array<int16_t>("=i2", {2}, {1, -2}), T(E::kI16, {2}))),
            (std::vector<int16_t>{1, -2}));
  EXPECT_EQ(Values<int16_t>(ToTensorOk(Array<uint8_t>(">i2", {2}, {0x01, 0x02, 0xff, 0xfe}), T(E::kI16, {2}))),
            (std::vector<int16_t>{0x0102, -2}));
  EXPECT_EQ(Values<uint8_t>(ToTensorOk(Array<uint8_t>("|u1", {2}, {1, 250}), T(E::kU8, {2}))),
            (std::vector<uint8_t>{1, 250}));
  // complex128: each part swapped on its own.
  std::vector<uint8_t> be;
  for (double d : {1.5, -2.0}) {
    uint8_t b[8];
    std::memcpy(b, &d, 8);
    for (int i = 7; i >= 0; --i) be.push_back(b[i]);
  }
  EXPECT_EQ(Values<std::complex<double>>(ToTensorOk(Array<uint8_t>(">c16", {1}, be), T(E::kC128, {1}))),
            (std::vector<std::complex<double>>{{1.5, -2.0}}));
  // bfloat16 saved on a big-endian machine.
  EXPECT_EQ(Values<uint16_t>(ToTensorOk(Array<uint8_t>(">V2", {1}, {0x3f, 0x80}), T(E::kBF16, {1}))),
            (std::vector<uint16_t>{0x3f80}));
  EXPECT_EQ(Values<uint16_t>(ToTensorOk(Array<uint8_t>("|V2", {1}, {0x80, 0x3f}), T(E::kBF16, {1}))),
            (std::vector<uint16_t>{0x3f80}));
}

TEST(IoConvert, FortranOrderBigEndian3D) {
  // Values v[i][j][k] = 100i + 10j + k for shape (2, 3, 4), stored column-major big-endian.
  const std::vector<int64_t> shape = {2, 3, 4};
  std::vector<uint8_t> data;
  for (int k = 0; k < 4; ++k) {
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 2; ++i) {
        const int v = 100 * i + 10 * j + k;
        data.push_back(static_cast<uint8_t>(v >> 8));
        data.push_back(static_cast<uint8_t>(v & 0xff));
      }
    }
  }
  const cpu::Tensor t = ToTensorOk(Array<uint8_t>(">i2", shape, data, /*fortran=*/true), T(E::kI16, shape));
  std::vector<int16_t> expected;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 4; ++k) expected.push_back(static_cast<int16_t>(100 * i + 10 * j + k));
    }
  }
  EXPECT_EQ(Values<int16_t>(t), expected);
  // Fortran order of a 1-D array is the same layout.
  EXPECT_EQ(Values<float>(ToTensorOk(Array<float>("<f4", {3}, {1, 2, 3}, true), T(E::kF32, {3}))),
            (std::vector<float>{1, 2, 3}));
}

TEST(IoConvert, BoolBytesAreNormalized) {
  EXPECT_EQ(Values<uint8_t>(ToTensorOk(Array<uint8_t>("|b1", {3}, {0, 2, 255}), T(E::kI1, {3}))),
            (std::vector<uint8_t>{0, 1, 1}));
}

TEST(IoConvert, SubByteIntegers) {
  // From int8 / uint8 arrays, with a range check.
  EXPECT_EQ(Values<int8_t>(ToTensorOk(Array<int8_t>("|i1", {4}, {-8, -1, 0, 7}), T(E::kI4, {4}))),
            (std::vector<int8_t>{-8, -1, 0, 7}));
  EXPECT_EQ(Values<uint8_t>(ToTensorOk(Array<uint8_t>("|u1", {2}, {0, 15}), T(E::kU4, {2}))),
            (std::vector<uint8_t>{0, 15}));
  EXPECT_EQ(Values<int8_t>(ToTensorOk(Array<uint8_t>("|u1", {2}, {0, 1}), T(E::kI2, {2}))),
            (std::vector<int8_t>{0, 1}));
  EXPECT_EQ(ConvertError(Array<int8_t>("|i1", {2, 2}, {0, 1, 8, 0}), T(E::kI4, {2, 2})),
            "argument 2 (arr_2): the element at [1, 0] is 8, outside the range of i4 [-8, 7]");
  EXPECT_TRUE(HasSubstr(ConvertError(Array<int8_t>("|i1", {1}, {-1}), T(E::kU4, {1})),
                        "is -1, outside the range of ui4 [0, 15]"));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<uint8_t>("|u1", {1}, {2}), T(E::kI2, {1})),
                        "is 2, outside the range of i2 [-2, 1]"));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<int16_t>("<i2", {1}, {1}), T(E::kI4, {1})), "has dtype int16"));
  // From ml_dtypes' void bytes: low bits (or an already sign-extended byte).
  EXPECT_EQ(Values<int8_t>(ToTensorOk(Array<uint8_t>("<V1", {3}, {2, 3, 0xfe}), T(E::kI2, {3}))),
            (std::vector<int8_t>{-2, -1, -2}));
  EXPECT_EQ(Values<uint8_t>(ToTensorOk(Array<uint8_t>("<V1", {2}, {3, 1}), T(E::kU2, {2}))),
            (std::vector<uint8_t>{3, 1}));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<uint8_t>("<V1", {2}, {1, 0x20}), T(E::kI4, {2})),
                        "the element at [1] is the byte 0x20, which is not an i4 value"));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<uint8_t>("<V1", {1}, {0xff}), T(E::kU4, {1})), "is the byte 0xff"));
}

TEST(IoConvert, NarrowFloats) {
  EXPECT_EQ(Values<uint8_t>(ToTensorOk(Array<uint8_t>("<V1", {2}, {0x7e, 0xff}), T(E::kF8E4M3FN, {2}))),
            (std::vector<uint8_t>{0x7e, 0xff}));
  EXPECT_EQ(Values<uint8_t>(ToTensorOk(Array<uint8_t>("|V1", {1}, {0x0f}), T(E::kF4E2M1FN, {1}))),
            (std::vector<uint8_t>{0x0f}));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<uint8_t>("<V1", {1}, {0x10}), T(E::kF4E2M1FN, {1})),
                        "is 0x10, which has bits set above the 4 bits of f4E2M1FN"));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<uint8_t>("<V1", {1}, {0x40}), T(E::kF6E3M2FN, {1})),
                        "above the 6 bits"));
  EXPECT_TRUE(HasSubstr(ConvertError(Array<uint32_t>("<V4", {1}, {1u << 19}), T(E::kTF32, {1})),
                        "above the 19 bits of tf32"));
}

// ---------------------------------------------------------------------------
// Malformed .npy files: errors, never crashes.

TEST(IoNpyMalformed, EveryTruncation) {
  for (const char* hex : {kFortranF4, kBigEndianI4, kBool, kBf16, kScalarF8, kComplex64, kInt4, kE5m2}) {
    const std::string bytes = FromHex(hex);
    for (size_t n = 0; n < bytes.size(); ++n) {
      EXPECT_NE(NpyError(bytes.substr(0, n)), "<parsed fine>") << n;
    }
    EXPECT_EQ(NpyError(bytes), "<parsed fine>");
  }
  EXPECT_EQ(NpyError(FromHex(kBool).substr(0, 100)),
            "t.npy: truncated .npy file (the header needs 118 bytes, 90 are left)");
  EXPECT_EQ(NpyError(FromHex(kBool).substr(0, 130)),
            "t.npy: shape (4,) of bool needs 4 bytes of data but the file has 2 (truncated?)");
}

TEST(IoNpyMalformed, MagicAndVersion) {
  std::string bytes = FromHex(kBool);
  EXPECT_EQ(NpyError("PK\x03\x04 not npy"), "t.npy: not a .npy file (it does not start with \"\\x93NUMPY\")");
  std::string v = bytes;
  v[1] = 'n';
  EXPECT_TRUE(HasSubstr(NpyError(v), "not a .npy file"));
  v = bytes;
  v[6] = 4;
  EXPECT_EQ(NpyError(v), "t.npy: unsupported .npy format version 4.0 (supported: 1.0, 2.0, 3.0)");
  v = bytes;
  v[7] = 1;
  EXPECT_TRUE(HasSubstr(NpyError(v), "unsupported .npy format version 1.1"));
}

TEST(IoNpyMalformed, HeaderDict) {
  const std::string f4 = std::string(4, '\0');
  auto err = [&](const std::string& dict) { return NpyError(NpyWithHeader(dict, f4)); };
  EXPECT_EQ(err("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }"), "<parsed fine>");
  EXPECT_EQ(err("{\"shape\": (1,), \"descr\": \"<f4\", \"fortran_order\": False}\n  "), "<parsed fine>");
  EXPECT_EQ(err("{'descr': '<f4', 'fortran_order': False, 'shape': (1L,)}"), "<parsed fine>");
  EXPECT_TRUE(HasSubstr(err("['descr', '<f4']"), "t.npy: bad .npy header: expected '{'"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'fortran_order': False}"), "the key 'shape' is missing"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'shape': (1,)}"), "the key 'fortran_order' is missing"));
  EXPECT_TRUE(HasSubstr(err("{'fortran_order': False, 'shape': (1,)}"), "the key 'descr' is missing"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}"),
                        "duplicate key 'descr'"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}"),
                        "unexpected key 'x'"));
  EXPECT_TRUE(HasSubstr(err("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}"),
                        "structured dtypes"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '|O', 'fortran_order': False, 'shape': (1,)}"), "object arrays"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (1,)}"), "datetime"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f3', 'fortran_order': False, 'shape': (1,)}"), "unsupported dtype '<f3'"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}"), "expected True or False"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'fortran_order': Falsey, 'shape': (1,)}"), "expected True or False"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'fortran_order': False, 'shape': (1)}"), "not a tuple"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'fortran_order': False, 'shape': [1]}"), "got a list"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}"), "negative dimension"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}"),
                        "too large"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'fortran_order': False, 'shape': (1 2)}"), "expected ',' or ')'"));
  EXPECT_TRUE(HasSubstr(err("{'descr' '<f4', 'fortran_order': False, 'shape': (1,)}"),
                        "expected ':' after key 'descr' (at byte 9 of the header)"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4, 'fortran_order': False, 'shape': (1,)}"),
                        "expected ',' or '}' after the value of 'descr'"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} x"), "unexpected text"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4' 'fortran_order': False, 'shape': (1,)}"), "expected ',' or '}'"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f\\x34', 'fortran_order': False, 'shape': (1,)}"), "escape"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)"),
                        "expected ',' or '}' after the value of 'shape'"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), "), "expected a key"));
  EXPECT_TRUE(HasSubstr(err("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'sh"), "unterminated string"));
  EXPECT_TRUE(HasSubstr(err(""), "expected '{'"));
}

TEST(IoNpyMalformed, DataSizeMismatch) {
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  EXPECT_EQ(NpyError(NpyWithHeader(dict, std::string(24, '\0'))), "<parsed fine>");
  EXPECT_EQ(NpyError(NpyWithHeader(dict, std::string(25, '\0'))),
            "t.npy: shape (2, 3) of float32 needs 24 bytes of data but the file has 25");
  EXPECT_EQ(NpyError(NpyWithHeader(dict, std::string(20, '\0'))),
            "t.npy: shape (2, 3) of float32 needs 24 bytes of data but the file has 20 (truncated?)");
}

TEST(IoNpyMalformed, HugeDeclaredSizes) {
  auto err = [](const std::string& shape) {
    return NpyError(NpyWithHeader("{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + "}", "12345678"));
  };
  EXPECT_TRUE(HasSubstr(err("(4611686018427387904, 4611686018427387904)"), "is too large"));
  EXPECT_TRUE(HasSubstr(err("(2305843009213693952,)"), "is too large"));  // 2^61 * 8 bytes = 2^64
  EXPECT_TRUE(HasSubstr(err("(1099511627776,)"), "needs 8796093022208 bytes of data but the file has 8"));
  EXPECT_TRUE(HasSubstr(err("(9223372036854775807, 0)"), "needs 0 bytes of data but the file has 8"));
  EXPECT_TRUE(HasSubstr(NpyError(NpyWithHeader("{'descr': '<V99999999999999', 'fortran_order': False, "
                                               "'shape': (1,)}", "x")),
                        "unsupported dtype"));
  std::string big_header("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12);
  EXPECT_TRUE(HasSubstr(NpyError(big_header + "{}"), "the header needs 4294967295 bytes, 2 are left"));
}

TEST(IoNpyMalformed, RandomCorruption) {
  std::mt19937 rng(1234);
  const std::string good = FromHex(kFortranF4);
  for (int iter = 0; iter < 3000; ++iter) {
    std::string bytes = good;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) bytes[rng() % bytes.size()] = static_cast<char>(rng());
    auto a = ParseNpy(std::string_view(bytes), "t.npy");
    if (a.ok()) (void)ToTensor(*a, T(E::kF32, {2, 3}), "x");  // whatever it says, no crash
  }
}

// ---------------------------------------------------------------------------
// Malformed .npz files.

TEST(IoNpzMalformed, EveryTruncation) {
  for (const char* hex : {kNpzTwo, kNpzCompressed, kNpzDescriptor}) {
    const std::string bytes = FromHex(hex);
    for (size_t n = 0; n < bytes.size(); ++n) {
      EXPECT_NE(NpzError(bytes.substr(0, n)), "<parsed fine>") << n;
    }
    EXPECT_EQ(NpzError(bytes), "<parsed fine>");
  }
  EXPECT_EQ(NpzError(""), "t.npz: truncated ZIP file (0 bytes, no end of central directory record)");
  EXPECT_EQ(NpzError(FromHex(kNpzTwo).substr(0, 300)),
            "t.npz: no end of central directory record (truncated or not a ZIP file)");
}

TEST(IoNpzMalformed, EveryByteFlipIsSafe) {
  // Flipping any byte gives an error or (for bytes nobody checks, such as
  // timestamps and attributes) the same arrays; never a crash.
  for (const char* hex : {kNpzTwo, kNpzCompressed, kNpzDescriptor}) {
    const std::string good = FromHex(hex);
    auto expected = ParseNpz(good, "t.npz");
    ASSERT_TRUE(expected.ok());
    for (size_t i = 0; i < good.size(); ++i) {
      std::string bytes = good;
      bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
      auto got = ParseNpz(bytes, "t.npz");
      if (!got.ok()) continue;
      ASSERT_EQ(got->size(), expected->size()) << i;
      for (size_t k = 0; k < got->size(); ++k) {
        EXPECT_EQ((*got)[k].second.data, (*expected)[k].second.data) << i;
        EXPECT_EQ((*got)[k].second.shape, (*expected)[k].second.shape) << i;
      }
    }
  }
}

TEST(IoNpzMalformed, BadCrc) {
  std::string bytes = FromHex(kNpzTwo);
  const size_t cd = FindSig(bytes, kCentral);
  SetLe(bytes, cd + 16, Le32(bytes, cd + 16) ^ 1, 4);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "t.npz: entry 'w.npy': CRC-32 mismatch (the archive says 0x0d4bf322, "
                                         "the data has 0x0d4bf323): the file is corrupt"));
  // A changed data byte (the last element of 'arr_0').
  bytes = FromHex(kNpzTwo);
  const size_t cd2 = FindSig(bytes, kCentral);
  bytes[cd2 - 1] = static_cast<char>(bytes[cd2 - 1] ^ 1);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "entry 'arr_0.npy': CRC-32 mismatch"));
  // Compressed entries are checked after inflating.
  bytes = FromHex(kNpzCompressed);
  const size_t cd3 = FindSig(bytes, kCentral, 1);
  SetLe(bytes, cd3 + 16, 0, 4);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "entry 'arr_1.npy': CRC-32 mismatch"));
}

TEST(IoNpzMalformed, DeclaredSizes) {
  const std::string good = FromHex(kNpzCompressed);
  const size_t cd = FindSig(good, kCentral);  // arr_0: 208 bytes from 73
  std::string bytes = good;
  SetLe(bytes, cd + 24, 0xfffffff0u, 4);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "claims 4294967280 bytes uncompressed from 73 compressed, more than "
                                         "deflate can produce"));
  bytes = good;
  SetLe(bytes, cd + 24, 100, 4);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "inflates to more than the 100 bytes the archive declares"));
  bytes = good;
  SetLe(bytes, cd + 24, 300, 4);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "inflates to 208 bytes, the archive declares 300"));
  bytes = good;
  SetLe(bytes, cd + 20, 72, 4);  // one compressed byte less
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "entry 'arr_0.npy': "));
  bytes = good;
  SetLe(bytes, cd + 20, 0x7fffffff, 4);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "bytes of data run past the central directory"));

  // Stored entries: sizes must agree and fit.
  const std::string stored = FromHex(kNpzTwo);
  const size_t scd = FindSig(stored, kCentral);
  bytes = stored;
  SetLe(bytes, scd + 24, 161, 4);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "stored entry with compressed size 160 but uncompressed size 161"));
  bytes = stored;
  SetLe(bytes, scd + 20, 0xfffffffeu, 4);
  SetLe(bytes, scd + 24, 0xfffffffeu, 4);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "run past the central directory"));

  // The end record: counts, directory size and offset.
  const size_t end = FindSig(stored, kEnd);
  bytes = stored;
  SetLe(bytes, end + 8, 0xfff0, 2);
  SetLe(bytes, end + 10, 0xfff0, 2);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "claims 65520 entries, more than its 106-byte central directory"));
  bytes = stored;
  SetLe(bytes, end + 16, 0xfffffff0u, 4);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "does not fit in the file"));
  bytes = stored;
  SetLe(bytes, end + 12, Le32(stored, end + 12) - 1, 4);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "t.npz: central directory entry 1 is truncated"));
  bytes = stored;
  SetLe(bytes, end + 8, 1, 2);
  SetLe(bytes, end + 10, 1, 2);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "bytes after its last entry"));
  bytes = stored;
  SetLe(bytes, end + 4, 1, 2);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "multi-disk"));
  bytes = stored;
  SetLe(bytes, end + 20, 5, 2);  // a comment longer than what follows
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "no end of central directory record"));
  EXPECT_EQ(NpzError(stored + "hello"), "t.npz: no end of central directory record (truncated or not a ZIP file)");
  bytes = stored;
  SetLe(bytes, end + 20, 5, 2);
  EXPECT_EQ(NpzError(bytes + "hello"), "<parsed fine>");  // a real comment
}

TEST(IoNpzMalformed, EntriesAndMethods) {
  const std::string stored = FromHex(kNpzTwo);
  const size_t local = FindSig(stored, kLocal);
  const size_t cd = FindSig(stored, kCentral);
  std::string bytes = stored;
  SetLe(bytes, local + 8, 12, 2);
  SetLe(bytes, cd + 10, 12, 2);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "entry 'w.npy': compression method 12 is not supported"));
  bytes = stored;
  SetLe(bytes, cd + 10, 8, 2);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "the local header says compression method 0, the central directory 8"));
  bytes = stored;
  SetLe(bytes, cd + 8, 1, 2);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "encrypted ZIP entries are not supported"));
  bytes = stored;
  bytes[cd + 46] = 'v';
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "entry 'v.npy': the local header has another name"));
  bytes = stored;
  SetLe(bytes, cd + 42, 5, 4);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "bad local header signature"));
  bytes = stored;
  SetLe(bytes, cd + 30, 0xffff, 2);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "central directory entry 0 is truncated"));
  bytes = stored;
  SetLe(bytes, cd, 0x12345678, 4);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "central directory entry 0 has a bad signature"));

  // Two directory entries for the same data.
  NamedArrays two;
  two.emplace_back("a", Array<float>("<f4", {1}, {1}));
  two.emplace_back("b", Array<float>("<f4", {1}, {1}));
  std::string zip = *SerializeNpz(two);
  const size_t second = FindSig(zip, kCentral, 1);
  zip[second + 46] = 'a';
  SetLe(zip, second + 42, 0, 4);
  EXPECT_TRUE(HasSubstr(NpzError(zip), "entries 'a.npy' and 'a.npy' overlap"));
  // Same name, distinct data.
  zip = *SerializeNpz(two);
  const size_t second_local = FindSig(zip, kLocal, 1);
  zip[second_local + 30] = 'a';
  zip[FindSig(zip, kCentral, 1) + 46] = 'a';
  EXPECT_TRUE(HasSubstr(NpzError(zip), "two entries are named 'a.npy'"));
  // Not a .npy entry.
  zip = *SerializeNpz(two);
  zip[FindSig(zip, kLocal, 1) + 30 + 2] = 'x';
  zip[FindSig(zip, kCentral, 1) + 46 + 2] = 'x';
  EXPECT_TRUE(HasSubstr(NpzError(zip), "entry 'b.xpy' is not a .npy array"));
  // A bad .npy inside: the message names the archive and the entry.
  zip = *SerializeNpz(two);
  zip[FindSig(zip, kLocal, 1) + 30 + 5] = 'X';  // the first magic byte of b.npy
  EXPECT_TRUE(HasSubstr(NpzError(zip), "entry 'b.npy'"));
}

TEST(IoNpzMalformed, Zip64Records) {
  NamedArrays arrays;
  arrays.emplace_back("a", Array<float>("<f4", {2}, {1, 2}));
  NpzWriteOptions options;
  options.force_zip64 = true;
  const std::string good = *SerializeNpz(arrays, options);
  ASSERT_EQ(NpzError(good), "<parsed fine>");
  const size_t z64 = FindSig(good, kEnd64);
  const size_t cd = FindSig(good, kCentral);
  std::string bytes = good;
  SetLe(bytes, z64, 0, 4);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "bad ZIP64 end of central directory record"));
  bytes = good;
  SetLe(bytes, z64 + 56 + 8, 0xffffffffffull, 8);  // the locator's offset
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "ZIP64 end of central directory record is out of bounds"));
  bytes = good;
  SetLe(bytes, z64 + 32, 1000000, 8);  // entry count
  SetLe(bytes, z64 + 24, 1000000, 8);
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "claims 1000000 entries"));
  bytes = good;
  SetLe(bytes, z64 + 48, 1ull << 62, 8);  // directory offset
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "does not fit in the file"));
  bytes = good;
  SetLe(bytes, cd + 46 + 5 + 2, 8, 2);  // the ZIP64 extra field too short for its 3 values
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "ZIP64 extra field is too short"));
  bytes = good;
  SetLe(bytes, cd + 46 + 5 + 4, 1ull << 40, 8);  // uncompressed size
  SetLe(bytes, cd + 46 + 5 + 12, 1ull << 40, 8);  // compressed size
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "run past the central directory"));
  bytes = good;
  SetLe(bytes, cd + 46 + 5 + 20, 1ull << 40, 8);  // local header offset
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "local header offset 1099511627776 is out of bounds"));
  bytes = good;
  SetLe(bytes, cd + 46 + 5 + 2, 0xff00, 2);  // the extra field runs past the entry
  EXPECT_TRUE(HasSubstr(NpzError(bytes), "malformed extra field"));
}

TEST(IoNpzMalformed, RandomCorruption) {
  std::mt19937 rng(99);
  for (const char* hex : {kNpzTwo, kNpzCompressed, kNpzDescriptor}) {
    const std::string good = FromHex(hex);
    for (int iter = 0; iter < 2000; ++iter) {
      std::string bytes = good;
      const int flips = 1 + static_cast<int>(rng() % 6);
      for (int f = 0; f < flips; ++f) bytes[rng() % bytes.size()] = static_cast<char>(rng());
      if (rng() % 4 == 0) bytes.resize(rng() % bytes.size());
      (void)ParseNpz(bytes, "t.npz");
    }
  }
}

}  // namespace
}  // namespace hlograph::io
