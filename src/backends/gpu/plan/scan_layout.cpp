#include "backends/gpu/plan/scan_layout.h"

#include <algorithm>
#include <sstream>

namespace hlograph::gpu {
namespace {

int64_t PowerOfTwoAtLeast(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

int64_t CeilDiv(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }

}  // namespace

std::string ScanLayout::ToString() const {
  std::ostringstream os;
  if (serial) {
    os << "serial scan (a lane per line, " << columns << " lines a warp";
  } else if (columns == 1) {
    os << "scan (warp per row, " << rows << "-element tiles, carried prefix";
  } else {
    os << "scan (warp tiles of " << columns << " columns x " << rows << " positions, carried prefix";
  }
  if (chunks > 1) os << ", axis in " << chunks << " chunks of " << chunk << " joined by a look-back";
  os << ")";
  return os.str();
}

ScanLayout PlanScanLayout(const std::vector<int64_t>& shape, int64_t axis, bool associative, int element_bytes,
                          int sm_count) {
  ScanLayout l;
  l.planned = true;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    const int64_t s = shape[static_cast<size_t>(d)];
    if (d < axis) l.outer *= s;
    else if (d == axis) l.length = s;
    else l.inner *= s;
  }
  const int64_t target = int64_t{kScanWarpsPerSm} * std::max(sm_count, 1);
  bool tiles = false;
  if (associative && l.length > 0 && l.lines() > 0) {
    int64_t columns = std::min<int64_t>(l.inner, 32);
    int64_t groups = l.outer * CeilDiv(l.inner, columns);
    if (groups * 2 < target) {
      // Narrower tiles: more line groups, each load instruction still
      // reading whole 32-byte sectors.
      const int64_t sector = PowerOfTwoAtLeast(std::max(1, 32 / std::max(element_bytes, 1)));
      if (sector < columns) {
        columns = sector;
        groups = l.outer * CeilDiv(l.inner, columns);
      }
    }
    const int64_t rows = 32 / columns;
    if (l.length >= rows) {
      tiles = true;
      l.columns = static_cast<int>(columns);
      l.rows = static_cast<int>(rows);
      l.groups = groups;
    }
  }
  if (!tiles) {
    l.serial = true;
    l.columns = 32;
    l.rows = 1;
    l.groups = CeilDiv(l.lines(), 32);
    l.chunks = 1;
    l.chunk = l.length;
    return l;
  }
  l.chunks = 1;
  if (l.groups * 2 < target) {
    const int64_t wanted = CeilDiv(target, l.groups);
    const int64_t by_length = std::max<int64_t>(1, l.length / (kScanMinTilesPerChunk * l.rows));
    const int64_t by_look_back = kScanMaxLookBackPerLane * l.rows;
    l.chunks = std::max<int64_t>(1, std::min({wanted, by_length, by_look_back}));
  }
  l.chunk = CeilDiv(CeilDiv(l.length, l.chunks), l.rows) * l.rows;
  l.chunks = CeilDiv(l.length, l.chunk);  // no empty chunk
  return l;
}

}  // namespace hlograph::gpu
