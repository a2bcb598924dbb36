// The on-disk cache: one file per entry (a compiled kernel, a cuDNN engine
// choice), named by the SHA-256 of everything that determines it, written
// atomically (temporary file and rename) and checked when read: a short,
// foreign or corrupt file is a miss, never trusted.
//
// Directory: $HLOGRAPH_CACHE_DIR, else $XDG_CACHE_HOME/hlograph, else
// ~/.cache/hlograph; HLOGRAPH_CACHE_DIR=off turns the cache off.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace hlograph::gpu {

using Digest = std::array<uint8_t, 32>;

// SHA-256 (FIPS 180-4), for cache keys and payload checksums.
class Sha256 {
 public:
  void Update(const void* data, size_t size);
  void Update(const std::string& s) { Update(s.data(), s.size()); }
  // Adds `s` with its length, so that consecutive fields cannot run into
  // each other ("ab"+"c" differs from "a"+"bc").
  void UpdateField(const std::string& s);
  Digest Finish();

 private:
  void Compress();
  std::array<uint32_t, 8> state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<uint8_t, 64> block_{};
  size_t used_ = 0;
  uint64_t length_ = 0;
};

Digest Sha256Of(const std::string& s);
std::string Hex(const Digest& digest);

// The cache's directory, or empty when it is off (or there is no home).
std::filesystem::path CacheDirectory();

// An entry's file: <directory>/<prefix>-<key in hex><suffix>.
std::filesystem::path CacheEntryPath(const std::filesystem::path& directory, const std::string& prefix,
                                     const Digest& key, const std::string& suffix);

// `magic`: 8 characters naming what kind of payload the file holds.
std::optional<std::string> ReadCacheEntry(const std::filesystem::path& path, const std::string& magic,
                                          const Digest& key);
// Best effort: a cache that cannot be written only costs the work again.
void WriteCacheEntry(const std::filesystem::path& path, const std::string& magic, const Digest& key,
                     const std::string& payload);

}  // namespace hlograph::gpu
