// Whole-file reads and all-or-nothing writes for the array file formats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hlograph/status.h"

namespace hlograph::io {

// The bytes of `path` (a regular file or anything readable to its end).
StatusOr<std::vector<uint8_t>> ReadFileBytes(const std::string& path);

// Where a writer puts its bytes. Write returns an error naming the file.
using ByteSink = std::function<Status(const void* data, size_t size)>;

// Calls `write` with a sink into a new temporary file next to `path` (same
// directory, so the rename cannot cross file systems), flushes it to disk
// and renames it over `path`. On any failure the temporary file is removed
// and `path` is left as it was.
Status WriteFileAtomically(const std::string& path, const std::function<Status(const ByteSink&)>& write);

}  // namespace hlograph::io
