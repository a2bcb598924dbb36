// NumPy .npz archives: ZIP files of .npy arrays (numpy.savez,
// numpy.savez_compressed), read and written per the ZIP file format
// specification (PKWARE APPNOTE): local headers, the central directory,
// data descriptors and ZIP64 records.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hlograph/status.h"
#include "io/npy.h"

namespace hlograph::io {

using NamedArrays = std::vector<std::pair<std::string, NpyArray>>;

// The arrays of an .npz file in the archive's order, named without the
// ".npy" suffix ("arr_0.npy" -> "arr_0"). Entries may be stored or deflated;
// every entry's CRC-32 is checked. Errors start with the path and say what
// is wrong; malformed or hostile files (truncated, inconsistent sizes,
// overlapping entries, zip bombs past deflate's maximum ratio) are errors.
// Not supported: encryption, compression other than deflate, multi-disk
// archives, archives with data before the first entry.
StatusOr<NamedArrays> ReadNpz(const std::string& path);
// The same on the bytes of an .npz file; `name` starts every error message.
StatusOr<NamedArrays> ParseNpz(std::string_view bytes, const std::string& name);

struct NpzWriteOptions {
  // Write ZIP64 records even where the sizes do not need them (for tests;
  // they are written anyway where a size or offset reaches 4 GiB - 1).
  bool force_zip64 = false;
};

// Writes the arrays as NAME.npy entries, stored uncompressed, as
// numpy.savez does; completely or not at all (temporary file, fsync,
// rename). Names must be unique; the arrays' data must match their shapes.
Status WriteNpz(const std::string& path, const NamedArrays& arrays, const NpzWriteOptions& options = {});
// The bytes WriteNpz would write.
StatusOr<std::string> SerializeNpz(const NamedArrays& arrays, const NpzWriteOptions& options = {});

}  // namespace hlograph::io
