#include "backends/gpu/runtime/cache_file.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace hlograph::gpu {
namespace {

uint32_t Rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

constexpr size_t kMagicBytes = 8;
// magic, key, payload length (little-endian), payload checksum; then the payload.
constexpr size_t kHeaderBytes = kMagicBytes + 32 + 8 + 32;

std::string EncodeEntry(const std::string& magic, const Digest& key, const std::string& payload) {
  std::string entry = magic;
  entry.append(reinterpret_cast<const char*>(key.data()), key.size());
  uint64_t length = payload.size();
  for (int i = 0; i < 8; ++i) entry += static_cast<char>(static_cast<uint8_t>(length >> (8 * i)));
  Digest checksum = Sha256Of(payload);
  entry.append(reinterpret_cast<const char*>(checksum.data()), checksum.size());
  entry += payload;
  return entry;
}

// The payload of a valid entry, or nothing.
std::optional<std::string> DecodeEntry(const std::string& magic, const Digest& key, const std::string& entry) {
  if (entry.size() < kHeaderBytes) return std::nullopt;
  const char* p = entry.data();
  if (std::memcmp(p, magic.data(), kMagicBytes) != 0) return std::nullopt;
  p += kMagicBytes;
  if (std::memcmp(p, key.data(), key.size()) != 0) return std::nullopt;
  p += key.size();
  uint64_t length = 0;
  for (int i = 0; i < 8; ++i) length |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  p += 8;
  if (length == 0 || length != entry.size() - kHeaderBytes) return std::nullopt;
  std::string payload = entry.substr(kHeaderBytes);
  Digest checksum = Sha256Of(payload);
  if (std::memcmp(p, checksum.data(), checksum.size()) != 0) return std::nullopt;
  return payload;
}

}  // namespace

void Sha256::Update(const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  length_ += size;
  while (size > 0) {
    size_t take = std::min(size, block_.size() - used_);
    std::memcpy(block_.data() + used_, bytes, take);
    used_ += take;
    bytes += take;
    size -= take;
    if (used_ == block_.size()) {
      Compress();
      used_ = 0;
    }
  }
}

void Sha256::UpdateField(const std::string& s) {
  uint64_t size = s.size();
  uint8_t encoded[8];
  for (int i = 0; i < 8; ++i) encoded[i] = static_cast<uint8_t>(size >> (8 * i));
  Update(encoded, sizeof(encoded));
  Update(s);
}

Digest Sha256::Finish() {
  uint64_t bit_length = length_ * 8;
  uint8_t pad = 0x80;
  Update(&pad, 1);
  uint8_t zero = 0;
  while (used_ != 56) Update(&zero, 1);
  uint8_t encoded[8];
  for (int i = 0; i < 8; ++i) encoded[i] = static_cast<uint8_t>(bit_length >> (56 - 8 * i));
  Update(encoded, 8);
  Digest digest;
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<uint8_t>(state_[i] >> (24 - 8 * j));
  }
  return digest;
}

void Sha256::Compress() {
  static constexpr uint32_t kRound[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
      0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
      0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
      0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
      0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
      0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
  uint32_t w[64];
  for (int i = 0; i < 16; ++i) {
    w[i] = (uint32_t{block_[4 * i]} << 24) | (uint32_t{block_[4 * i + 1]} << 16) |
           (uint32_t{block_[4 * i + 2]} << 8) | uint32_t{block_[4 * i + 3]};
  }
  for (int i = 16; i < 64; ++i) {
    uint32_t s0 = Rotr(w[i - 15], 7) ^ Rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = Rotr(w[i - 2], 17) ^ Rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
  uint32_t e = state_[4], f = state_[5], g = state_[6], h = state_[7];
  for (int i = 0; i < 64; ++i) {
    uint32_t s1 = Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25);
    uint32_t choose = (e & f) ^ (~e & g);
    uint32_t t1 = h + s1 + choose + kRound[i] + w[i];
    uint32_t s0 = Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22);
    uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = s0 + majority;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state_[0] += a;
  state_[1] += b;
  state_[2] += c;
  state_[3] += d;
  state_[4] += e;
  state_[5] += f;
  state_[6] += g;
  state_[7] += h;
}

Digest Sha256Of(const std::string& s) {
  Sha256 h;
  h.Update(s);
  return h.Finish();
}

std::string Hex(const Digest& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (uint8_t byte : digest) {
    s += kDigits[byte >> 4];
    s += kDigits[byte & 15];
  }
  return s;
}

std::filesystem::path CacheDirectory() {
  if (const char* dir = std::getenv("HLOGRAPH_CACHE_DIR"); dir != nullptr && *dir != '\0') {
    if (std::string(dir) == "off") return {};
    return dir;
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::filesystem::path(xdg) / "hlograph";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".cache" / "hlograph";
  }
  return {};
}

std::filesystem::path CacheEntryPath(const std::filesystem::path& directory, const std::string& prefix,
                                     const Digest& key, const std::string& suffix) {
  return directory / (prefix + "-" + Hex(key) + suffix);
}

std::optional<std::string> ReadCacheEntry(const std::filesystem::path& path, const std::string& magic,
                                          const Digest& key) {
  if (magic.size() != kMagicBytes) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string entry((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return DecodeEntry(magic, key, entry);
}

void WriteCacheEntry(const std::filesystem::path& path, const std::string& magic, const Digest& key,
                     const std::string& payload) {
  if (magic.size() != kMagicBytes) return;
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return;
  static std::atomic<uint64_t> counter{0};
  std::filesystem::path temp = path;
  temp += ".tmp." + std::to_string(static_cast<long>(getpid())) + "." + std::to_string(counter++);
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    const std::string entry = EncodeEntry(magic, key, payload);
    out.write(entry.data(), static_cast<std::streamsize>(entry.size()));
    out.close();
    if (!out) {
      std::filesystem::remove(temp, ec);
      return;
    }
  }
  std::filesystem::rename(temp, path, ec);  // atomic on POSIX: readers see the old or the new file
  if (ec) std::filesystem::remove(temp, ec);
}

}  // namespace hlograph::gpu
