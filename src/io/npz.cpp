// ZIP archives per PKWARE's APPNOTE.TXT. The parts used here (all integers
// little-endian):
//
//   local file header   PK\3\4, version needed, flags, method, time, date,
//                       crc-32, compressed size, uncompressed size, name
//                       length, extra length (30 bytes), name, extra; then
//                       the entry's data and, when flag bit 3 is set, a data
//                       descriptor (its values are also in the directory).
//   central directory   one PK\1\2 record per entry: version made by,
//   header              version needed, flags, method, time, date, crc-32,
//                       sizes, name/extra/comment lengths, disk number,
//                       internal and external attributes, local header
//                       offset (46 bytes), name, extra, comment.
//   end of central      PK\5\6, disk numbers, entry counts, directory size
//   directory (EOCD)    and offset, comment length (22 bytes), comment.
//   ZIP64               a size, offset or count that does not fit is stored
//                       as all ones; the real value is in the entry's extra
//                       field 0x0001 (uncompressed size, compressed size,
//                       offset, disk: only those that overflowed, in that
//                       order) or in the ZIP64 EOCD record (PK\6\6), found
//                       through the ZIP64 EOCD locator (PK\6\7) just before
//                       the EOCD.
#include "io/npz.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <set>

#include "io/file_util.h"

namespace hlograph::io {
namespace {

constexpr uint32_t kLocalHeaderSig = 0x04034b50;
constexpr uint32_t kCentralHeaderSig = 0x02014b50;
constexpr uint32_t kEocdSig = 0x06054b50;
constexpr uint32_t kZip64EocdSig = 0x06064b50;
constexpr uint32_t kZip64LocatorSig = 0x07064b50;
constexpr size_t kLocalHeaderSize = 30;
constexpr size_t kCentralHeaderSize = 46;
constexpr size_t kEocdSize = 22;
constexpr size_t kZip64EocdSize = 56;
constexpr size_t kZip64LocatorSize = 20;
constexpr uint16_t kZip64ExtraId = 0x0001;
constexpr uint16_t kMethodStored = 0;
constexpr uint16_t kMethodDeflate = 8;
constexpr uint16_t kFlagEncrypted = 1 << 0;
constexpr uint16_t kFlagStrongEncryption = 1 << 6;
constexpr uint16_t kFlagUtf8 = 1 << 11;
constexpr uint16_t kFlagMaskedHeaders = 1 << 13;
constexpr uint32_t kMax32 = 0xffffffffu;
constexpr uint16_t kMax16 = 0xffff;
// Deflate cannot expand data more than about 1032:1 (a 258-byte match costs
// at least two bits); anything that claims more is not a deflate stream.
constexpr uint64_t kMaxDeflateRatio = 1032;
constexpr uint16_t kDosDate1980 = (0 << 9) | (1 << 5) | 1;  // 1980-01-01, as numpy writes

uint16_t U16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t U32(const uint8_t* p) {
  return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
}
uint64_t U64(const uint8_t* p) { return uint64_t{U32(p)} | (uint64_t{U32(p + 4)} << 32); }

uint32_t Crc32(uint32_t crc, const uint8_t* data, size_t size) {
  while (size > 0) {
    const uInt chunk = static_cast<uInt>(std::min<size_t>(size, 1u << 30));
    crc = static_cast<uint32_t>(crc32(crc, data, chunk));
    data += chunk;
    size -= chunk;
  }
  return crc;
}

std::string Hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", v);
  return buf;
}

struct Entry {
  std::string name;
  uint16_t flags = 0;
  uint16_t method = 0;
  uint32_t crc = 0;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  uint64_t local_offset = 0;
  uint64_t data_offset = 0;  // after the local header
};

class ZipReader {
 public:
  ZipReader(std::string_view bytes, const std::string& name)
      : p_(reinterpret_cast<const uint8_t*>(bytes.data())), size_(bytes.size()), name_(name) {}

  StatusOr<NamedArrays> Read() {
    HLOGRAPH_TRY(ReadDirectory());
    HLOGRAPH_TRY(ReadLocalHeaders());
    NamedArrays arrays;
    std::set<std::string> seen;
    for (const Entry& e : entries_) {
      std::string key = e.name;
      if (key.size() < 4 || key.compare(key.size() - 4, 4, ".npy") != 0) {
        return Error("entry '" + e.name + "' is not a .npy array (an .npz file holds only NAME.npy entries)");
      }
      key.resize(key.size() - 4);
      if (!seen.insert(key).second) return Error("two entries are named '" + e.name + "'");
      HLOGRAPH_ASSIGN(NpyArray a, Extract(e));
      arrays.emplace_back(std::move(key), std::move(a));
    }
    return arrays;
  }

 private:
  Status Error(const std::string& what) const { return Status::Error(name_ + ": " + what); }
  Status EntryError(const Entry& e, const std::string& what) const {
    return Error("entry '" + e.name + "': " + what);
  }

  // Finds the EOCD (the last record whose comment reaches exactly to the
  // end of the file) and, through the ZIP64 locator, the ZIP64 EOCD.
  Status ReadDirectory() {
    if (size_ < kEocdSize) {
      if (size_ >= 4 && U32(p_) != kLocalHeaderSig && U32(p_) != kEocdSig) return Error("not a ZIP (.npz) file");
      return Error("truncated ZIP file (" + std::to_string(size_) + " bytes, no end of central directory record)");
    }
    size_t eocd = SIZE_MAX;
    const size_t lowest = size_ - kEocdSize > 0xffff ? size_ - kEocdSize - 0xffff : 0;
    for (size_t pos = size_ - kEocdSize + 1; pos-- > lowest;) {
      if (U32(p_ + pos) == kEocdSig && pos + kEocdSize + U16(p_ + pos + 20) == size_) {
        eocd = pos;
        break;
      }
    }
    if (eocd == SIZE_MAX) {
      if (U32(p_) != kLocalHeaderSig && U32(p_) != kEocdSig) return Error("not a ZIP (.npz) file");
      return Error("no end of central directory record (truncated or not a ZIP file)");
    }
    const uint8_t* r = p_ + eocd;
    uint64_t disk = U16(r + 4);
    uint64_t cd_disk = U16(r + 6);
    uint64_t count_disk = U16(r + 8);
    uint64_t count = U16(r + 10);
    uint64_t cd_size = U32(r + 12);
    uint64_t cd_offset = U32(r + 16);
    size_t cd_limit = eocd;  // the directory ends before this

    if (eocd >= kZip64LocatorSize && U32(p_ + eocd - kZip64LocatorSize) == kZip64LocatorSig) {
      const uint8_t* loc = p_ + eocd - kZip64LocatorSize;
      const uint64_t z64 = U64(loc + 8);
      if (U32(loc + 4) != 0 || U32(loc + 16) > 1) return Error("multi-disk ZIP archives are not supported");
      if (z64 > eocd - kZip64LocatorSize || eocd - kZip64LocatorSize - z64 < kZip64EocdSize) {
        return Error("the ZIP64 end of central directory record is out of bounds");
      }
      const uint8_t* z = p_ + z64;
      if (U32(z) != kZip64EocdSig) return Error("bad ZIP64 end of central directory record (wrong signature)");
      if (U64(z + 4) < kZip64EocdSize - 12 || U64(z + 4) > eocd - kZip64LocatorSize - z64 - 12) {
        return Error("bad ZIP64 end of central directory record (bad record size)");
      }
      disk = U32(z + 16);
      cd_disk = U32(z + 20);
      count_disk = U64(z + 24);
      count = U64(z + 32);
      cd_size = U64(z + 40);
      cd_offset = U64(z + 48);
      cd_limit = static_cast<size_t>(z64);
    }
    if (disk != 0 || cd_disk != 0 || count_disk != count) return Error("multi-disk ZIP archives are not supported");
    if (cd_offset > cd_limit || cd_size > cd_limit - cd_offset) {
      return Error("the central directory (offset " + std::to_string(cd_offset) + ", " + std::to_string(cd_size) +
                   " bytes) does not fit in the file (truncated?)");
    }
    if (count > cd_size / kCentralHeaderSize) {
      return Error("the end of central directory record claims " + std::to_string(count) +
                   " entries, more than its " + std::to_string(cd_size) + "-byte central directory can hold");
    }
    cd_offset_ = cd_offset;
    return ReadCentralDirectory(static_cast<size_t>(cd_offset), static_cast<size_t>(cd_size),
                                static_cast<size_t>(count));
  }

  Status ReadCentralDirectory(size_t offset, size_t size, size_t count) {
    size_t pos = offset;
    const size_t end = offset + size;
    entries_.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      const std::string where = "central directory entry " + std::to_string(i);
      if (end - pos < kCentralHeaderSize) return Error(where + " is truncated");
      const uint8_t* h = p_ + pos;
      if (U32(h) != kCentralHeaderSig) return Error(where + " has a bad signature (corrupt directory)");
      Entry e;
      e.flags = U16(h + 8);
      e.method = U16(h + 10);
      e.crc = U32(h + 16);
      e.compressed_size = U32(h + 20);
      e.uncompressed_size = U32(h + 24);
      const size_t name_len = U16(h + 28);
      const size_t extra_len = U16(h + 30);
      const size_t comment_len = U16(h + 32);
      uint64_t disk = U16(h + 34);
      e.local_offset = U32(h + 42);
      if (end - pos - kCentralHeaderSize < name_len + extra_len + comment_len) return Error(where + " is truncated");
      e.name.assign(reinterpret_cast<const char*>(h + kCentralHeaderSize), name_len);
      // ZIP64 values replace the fields stored as all ones, in this order.
      const uint8_t* extra = h + kCentralHeaderSize + name_len;
      size_t at = 0;
      while (extra_len - at >= 4) {
        const uint16_t id = U16(extra + at);
        const size_t len = U16(extra + at + 2);
        at += 4;
        if (len > extra_len - at) return EntryError(e, "malformed extra field in the central directory");
        if (id == kZip64ExtraId) {
          const uint8_t* f = extra + at;
          size_t left = len;
          auto take64 = [&](uint64_t* v) {
            if (left < 8) return false;
            *v = U64(f);
            f += 8;
            left -= 8;
            return true;
          };
          bool ok = true;
          if (e.uncompressed_size == kMax32) ok = ok && take64(&e.uncompressed_size);
          if (e.compressed_size == kMax32) ok = ok && take64(&e.compressed_size);
          if (e.local_offset == kMax32) ok = ok && take64(&e.local_offset);
          if (disk == kMax16) {
            ok = ok && left >= 4;
            if (ok) disk = U32(f);
          }
          if (!ok) return EntryError(e, "ZIP64 extra field is too short");
        }
        at += len;
      }
      if (disk != 0) return Error("multi-disk ZIP archives are not supported");
      if (e.flags & (kFlagEncrypted | kFlagStrongEncryption | kFlagMaskedHeaders)) {
        return EntryError(e, "encrypted ZIP entries are not supported");
      }
      if (e.method != kMethodStored && e.method != kMethodDeflate) {
        return EntryError(e, "compression method " + std::to_string(e.method) +
                                 " is not supported (only stored and deflate)");
      }
      entries_.push_back(std::move(e));
      pos += kCentralHeaderSize + name_len + extra_len + comment_len;
    }
    if (pos != end) {
      return Error("the central directory has " + std::to_string(end - pos) +
                   " bytes after its last entry (entry count and directory size disagree)");
    }
    return Status::Ok();
  }

  // Checks each local header against its directory entry, finds where the
  // data starts, and that entries neither overlap nor run into the directory.
  Status ReadLocalHeaders() {
    for (Entry& e : entries_) {
      if (e.local_offset > cd_offset_ || cd_offset_ - e.local_offset < kLocalHeaderSize) {
        return EntryError(e, "local header offset " + std::to_string(e.local_offset) + " is out of bounds");
      }
      const uint8_t* h = p_ + e.local_offset;
      if (U32(h) != kLocalHeaderSig) return EntryError(e, "bad local header signature (corrupt archive)");
      const uint16_t method = U16(h + 8);
      const size_t name_len = U16(h + 26);
      const size_t extra_len = U16(h + 28);
      const uint64_t header_end = e.local_offset + kLocalHeaderSize + name_len + extra_len;
      if (header_end > cd_offset_) return EntryError(e, "local header runs past the central directory");
      if (method != e.method) {
        return EntryError(e, "the local header says compression method " + std::to_string(method) +
                                 ", the central directory " + std::to_string(e.method));
      }
      if (std::string_view(reinterpret_cast<const char*>(h + kLocalHeaderSize), name_len) != e.name) {
        return EntryError(e, "the local header has another name");
      }
      if (e.compressed_size > cd_offset_ - header_end) {
        return EntryError(e, "its " + std::to_string(e.compressed_size) +
                                 " bytes of data run past the central directory (truncated?)");
      }
      e.data_offset = header_end;
    }
    std::vector<const Entry*> by_offset;
    for (const Entry& e : entries_) by_offset.push_back(&e);
    std::sort(by_offset.begin(), by_offset.end(),
              [](const Entry* a, const Entry* b) { return a->local_offset < b->local_offset; });
    for (size_t i = 1; i < by_offset.size(); ++i) {
      const Entry& prev = *by_offset[i - 1];
      if (prev.data_offset + prev.compressed_size > by_offset[i]->local_offset) {
        return Error("entries '" + prev.name + "' and '" + by_offset[i]->name + "' overlap");
      }
    }
    return Status::Ok();
  }

  StatusOr<NpyArray> Extract(const Entry& e) {
    const uint8_t* data = p_ + e.data_offset;
    const std::string npy_name = name_ + ": entry '" + e.name + "'";
    if (e.method == kMethodStored) {
      if (e.compressed_size != e.uncompressed_size) {
        return EntryError(e, "stored entry with compressed size " + std::to_string(e.compressed_size) +
                                 " but uncompressed size " + std::to_string(e.uncompressed_size));
      }
      const size_t n = static_cast<size_t>(e.compressed_size);
      const uint32_t crc = Crc32(0, data, n);
      if (crc != e.crc) {
        return EntryError(e, "CRC-32 mismatch (the archive says " + Hex32(e.crc) + ", the data has " + Hex32(crc) +
                                 "): the file is corrupt");
      }
      return ParseNpy(std::string_view(reinterpret_cast<const char*>(data), n), npy_name);
    }
    HLOGRAPH_ASSIGN(std::vector<uint8_t> out, Inflate(e, data));
    const uint32_t crc = Crc32(0, out.data(), out.size());
    if (crc != e.crc) {
      return EntryError(e, "CRC-32 mismatch (the archive says " + Hex32(e.crc) + ", the data has " + Hex32(crc) +
                               "): the file is corrupt");
    }
    return ParseNpy(std::move(out), npy_name);
  }

  // Raw deflate (no zlib header) into exactly uncompressed_size bytes. The
  // buffer grows with the output actually produced, so a false size claim
  // costs nothing.
  StatusOr<std::vector<uint8_t>> Inflate(const Entry& e, const uint8_t* data) {
    const uint64_t in_size = e.compressed_size;
    const uint64_t out_size = e.uncompressed_size;
    if (out_size / kMaxDeflateRatio > in_size + 16) {
      return EntryError(e, "claims " + std::to_string(out_size) + " bytes uncompressed from " +
                               std::to_string(in_size) + " compressed, more than deflate can produce");
    }
    z_stream zs;
    std::memset(&zs, 0, sizeof(zs));
    if (inflateInit2(&zs, -15) != Z_OK) return EntryError(e, "cannot start zlib inflate");
    struct End {
      z_stream* zs;
      ~End() { inflateEnd(zs); }
    } end{&zs};
    // One byte past the declared size shows when the stream holds more.
    const uint64_t cap = out_size + 1;
    std::vector<uint8_t> out(static_cast<size_t>(std::min<uint64_t>(cap, std::max<uint64_t>(in_size * 4, 1 << 20))));
    uint64_t in_pos = 0;
    uint64_t produced = 0;
    while (true) {
      if (produced == out.size()) {
        if (out.size() >= cap) break;
        out.resize(static_cast<size_t>(std::min<uint64_t>(cap, uint64_t{out.size()} * 2)));
      }
      const uInt in_chunk = static_cast<uInt>(std::min<uint64_t>(in_size - in_pos, UINT_MAX));
      const uInt out_chunk = static_cast<uInt>(std::min<uint64_t>(out.size() - produced, UINT_MAX));
      zs.next_in = const_cast<Bytef*>(data + in_pos);
      zs.avail_in = in_chunk;
      zs.next_out = out.data() + produced;
      zs.avail_out = out_chunk;
      const int ret = inflate(&zs, Z_NO_FLUSH);
      in_pos += in_chunk - zs.avail_in;
      produced += out_chunk - zs.avail_out;
      if (ret == Z_STREAM_END) break;
      if (ret == Z_OK) continue;
      if (ret == Z_BUF_ERROR && produced == out.size()) continue;  // needs more room
      if (ret == Z_BUF_ERROR) return EntryError(e, "the compressed data ends early (truncated?)");
      if (ret == Z_MEM_ERROR) return EntryError(e, "out of memory while inflating");
      return EntryError(e, std::string("corrupt deflate data (") + (zs.msg ? zs.msg : "zlib error") + ")");
    }
    if (produced > out_size) {
      return EntryError(e, "inflates to more than the " + std::to_string(out_size) + " bytes the archive declares");
    }
    if (produced < out_size) {
      return EntryError(e, "inflates to " + std::to_string(produced) + " bytes, the archive declares " +
                               std::to_string(out_size));
    }
    if (in_pos != in_size) {
      return EntryError(e, std::to_string(in_size - in_pos) + " unexpected bytes after the end of the deflate data");
    }
    out.resize(static_cast<size_t>(produced));
    return out;
  }

  const uint8_t* p_;
  size_t size_;
  const std::string& name_;
  uint64_t cd_offset_ = 0;
  std::vector<Entry> entries_;
};

// ---------------------------------------------------------------------------
// Writing.

class LeBytes {
 public:
  LeBytes& U16(uint16_t v) { return Put(v, 2); }
  LeBytes& U32(uint32_t v) { return Put(v, 4); }
  LeBytes& U64(uint64_t v) { return Put(v, 8); }
  LeBytes& Bytes(std::string_view s) {
    out_.append(s);
    return *this;
  }
  const std::string& str() const { return out_; }

 private:
  LeBytes& Put(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_ += static_cast<char>((v >> (8 * i)) & 0xff);
    return *this;
  }
  std::string out_;
};

Status WriteZip(const NamedArrays& arrays, const NpzWriteOptions& options, const ByteSink& sink) {
  std::set<std::string> names;
  for (const auto& [key, array] : arrays) {
    if (!names.insert(key).second) return Status::Error("two arrays are named '" + key + "'");
    if (key.size() + 4 > 0xffff) return Status::Error("the array name '" + key.substr(0, 40) + "...' is too long");
    Status s = CheckNpyArray(array);
    if (!s.ok()) return Status::Error("array '" + key + "': " + s.message());
  }
  struct Written {
    std::string name;
    uint16_t flags;
    uint32_t crc;
    uint64_t size;
    uint64_t offset;
  };
  std::vector<Written> written;
  uint64_t offset = 0;
  for (const auto& [key, array] : arrays) {
    const std::string header = NpyHeader(array);
    Written w;
    w.name = key + ".npy";
    w.flags = std::any_of(w.name.begin(), w.name.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })
                  ? kFlagUtf8
                  : 0;
    w.crc = Crc32(Crc32(0, reinterpret_cast<const uint8_t*>(header.data()), header.size()), array.data.data(),
                  array.data.size());
    w.size = header.size() + array.data.size();
    w.offset = offset;
    const bool zip64 = options.force_zip64 || w.size >= kMax32;
    LeBytes h;
    h.U32(kLocalHeaderSig).U16(zip64 ? 45 : 20).U16(w.flags).U16(kMethodStored).U16(0).U16(kDosDate1980).U32(w.crc);
    if (zip64) {
      h.U32(kMax32).U32(kMax32).U16(static_cast<uint16_t>(w.name.size())).U16(20).Bytes(w.name);
      h.U16(kZip64ExtraId).U16(16).U64(w.size).U64(w.size);
    } else {
      h.U32(static_cast<uint32_t>(w.size)).U32(static_cast<uint32_t>(w.size));
      h.U16(static_cast<uint16_t>(w.name.size())).U16(0).Bytes(w.name);
    }
    HLOGRAPH_TRY(sink(h.str().data(), h.str().size()));
    HLOGRAPH_TRY(sink(header.data(), header.size()));
    HLOGRAPH_TRY(sink(array.data.data(), array.data.size()));
    offset += h.str().size() + w.size;
    written.push_back(std::move(w));
  }

  const uint64_t cd_offset = offset;
  LeBytes cd;
  for (const Written& w : written) {
    const bool big_size = options.force_zip64 || w.size >= kMax32;
    const bool big_offset = options.force_zip64 || w.offset >= kMax32;
    LeBytes extra;
    if (big_size) extra.U64(w.size).U64(w.size);
    if (big_offset) extra.U64(w.offset);
    const bool zip64 = big_size || big_offset;
    const uint16_t version = zip64 ? 45 : 20;
    cd.U32(kCentralHeaderSig).U16(static_cast<uint16_t>((3 << 8) | version)).U16(version).U16(w.flags);
    cd.U16(kMethodStored).U16(0).U16(kDosDate1980).U32(w.crc);
    cd.U32(big_size ? kMax32 : static_cast<uint32_t>(w.size)).U32(big_size ? kMax32 : static_cast<uint32_t>(w.size));
    cd.U16(static_cast<uint16_t>(w.name.size())).U16(static_cast<uint16_t>(zip64 ? 4 + extra.str().size() : 0));
    cd.U16(0).U16(0).U16(0).U32(0100644u << 16);  // comment, disk, internal, external: a rw-r--r-- file
    cd.U32(big_offset ? kMax32 : static_cast<uint32_t>(w.offset)).Bytes(w.name);
    if (zip64) cd.U16(kZip64ExtraId).U16(static_cast<uint16_t>(extra.str().size())).Bytes(extra.str());
  }
  const uint64_t cd_size = cd.str().size();
  const uint64_t count = written.size();
  const bool zip64_end = options.force_zip64 || count >= kMax16 || cd_offset >= kMax32 || cd_size >= kMax32;
  LeBytes end;
  if (zip64_end) {
    const uint64_t z64_offset = cd_offset + cd_size;
    end.U32(kZip64EocdSig).U64(kZip64EocdSize - 12).U16((3 << 8) | 45).U16(45).U32(0).U32(0);
    end.U64(count).U64(count).U64(cd_size).U64(cd_offset);
    end.U32(kZip64LocatorSig).U32(0).U64(z64_offset).U32(1);
  }
  const uint16_t count16 = zip64_end && (options.force_zip64 || count >= kMax16) ? kMax16 : static_cast<uint16_t>(count);
  end.U32(kEocdSig).U16(0).U16(0).U16(count16).U16(count16);
  end.U32(zip64_end && (options.force_zip64 || cd_size >= kMax32) ? kMax32 : static_cast<uint32_t>(cd_size));
  end.U32(zip64_end && (options.force_zip64 || cd_offset >= kMax32) ? kMax32 : static_cast<uint32_t>(cd_offset));
  end.U16(0);
  HLOGRAPH_TRY(sink(cd.str().data(), cd.str().size()));
  return sink(end.str().data(), end.str().size());
}

}  // namespace

StatusOr<NamedArrays> ParseNpz(std::string_view bytes, const std::string& name) {
  return ZipReader(bytes, name).Read();
}

StatusOr<NamedArrays> ReadNpz(const std::string& path) {
  HLOGRAPH_ASSIGN(const std::vector<uint8_t> bytes, ReadFileBytes(path));
  return ParseNpz(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
}

StatusOr<std::string> SerializeNpz(const NamedArrays& arrays, const NpzWriteOptions& options) {
  std::string out;
  Status s = WriteZip(arrays, options, [&](const void* data, size_t size) {
    out.append(static_cast<const char*>(data), size);
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

Status WriteNpz(const std::string& path, const NamedArrays& arrays, const NpzWriteOptions& options) {
  return WriteFileAtomically(path, [&](const ByteSink& sink) -> Status {
    Status s = WriteZip(arrays, options, sink);
    if (!s.ok() && s.message().rfind("cannot write '", 0) != 0) {
      return Status::Error("cannot write '" + path + "': " + s.message());
    }
    return s;
  });
}

}  // namespace hlograph::io
