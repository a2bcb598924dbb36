// How a scan kernel covers its array: plain data chosen from the shape,
// printed by `explain` (the kernel's strategy) and unit-tested without a
// GPU. codegen/scan_kernel.cpp emits the kernel; plan/prefix_scan.h says
// which ops are scans.
//
// The array is viewed as [outer, length, inner] around the scanned axis; a
// line is one (outer, inner) pair, scanned along the axis. The cost is one
// read and one write of the array (twice the read where the axis is split),
// so the layout is about coalescing and keeping every SM busy. Warps are
// the unit of work: 8 to a block of 256 threads, each on its own lines.
//
//   tiles   (the body is associative) a warp covers `columns` neighbouring
//           inner elements of one outer index and `rows` = 32 / columns
//           neighbouring axis positions: each load instruction reads
//           whole 32-byte sectors (contiguous when the inner extent is
//           below a sector). A tile is scanned along its rows by shuffles,
//           combined with the prefix carried from the tiles before it, and
//           the warp moves on along the axis. The axis innermost is the
//           row case: a warp per row, 32-element tiles.
//   serial  (the body is not associative, or the axis is shorter than a
//           tile) a lane per line, 32 neighbouring lines a warp, each lane
//           applying the body along its line in order: coalesced where the
//           inner extent is long.
//   chunks  (tiles too few to fill the device: a 1-D cumsum, a cumsum over
//           the 8192 tokens of an 8-expert one-hot) the axis is cut into
//           `chunks` chunks per line group, a warp each. A warp takes a
//           ticket (an atomic counter: the chunks before it have started),
//           folds its chunk, publishes the total and a flag, waits for the
//           flags of the chunks before it, folds their totals in chunk
//           order (lanes split the list, then a shuffle fold in order) into
//           its carry, and scans its chunk again with it. The last warp to
//           finish zeroes the counters and flags. Same bits every call.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hlograph::gpu {

struct ScanLayout {
  static constexpr int kThreads = 256;
  static constexpr int kWarpsPerBlock = kThreads / 32;
  // A chunk's published total takes a slot of 16 bytes (any compute type).
  static constexpr int kSlotBytes = 16;
  bool planned = false;
  int64_t outer = 1, length = 0, inner = 1;  // the array as [outer, length, inner]
  bool serial = false;
  int columns = 32;      // tiles: inner elements side by side; serial: lines a warp (32)
  int rows = 1;          // tiles: axis positions a tile covers (32 / columns); serial: 1
  int64_t groups = 0;    // warps' line groups
  int64_t chunks = 1;    // warps per line group along the axis
  int64_t chunk = 0;     // axis positions a chunk covers (a multiple of rows)

  int64_t lines() const { return outer * inner; }
  // tiles: a group is an outer index and a run of `columns` inner elements.
  int64_t column_blocks() const { return serial || columns <= 0 ? 1 : (inner + columns - 1) / columns; }
  int64_t warps() const { return groups * chunks; }
  int64_t blocks() const { return (warps() + kWarpsPerBlock - 1) / kWarpsPerBlock; }
  // chunks > 1: a slot per chunk and column, then u32 counters: tickets,
  // finished warps, and a flag per chunk (zero between calls).
  int64_t partial_bytes() const { return chunks > 1 ? warps() * columns * kSlotBytes : 0; }
  int64_t counter_bytes() const { return chunks > 1 ? (2 + warps()) * 4 : 0; }
  // "scan (warp per row, 32-element tiles, ...)" and so on.
  std::string ToString() const;
};

// Warps a scan aims for per SM before it splits the axis (half of the 64
// an H100/H200 SM holds: enough loads in flight for a streaming pass).
constexpr int kScanWarpsPerSm = 32;
// A chunk covers at least this many tiles: its warp's loads of one chunk
// overlap, and its total is worth the look-back it costs.
constexpr int64_t kScanMinTilesPerChunk = 4;
// The chunks before one that a lane folds in the look-back, at most:
// bounds the chunks of a line group to this many times `rows`.
constexpr int64_t kScanMaxLookBackPerLane = 32;

// The layout for scanning `shape` along `axis`, elements of
// `element_bytes` bytes, on `sm_count` SMs. Serial unless `associative`
// and the axis holds a whole tile; tiles take min(inner, 32) columns, or a
// sector's worth (a power of two of at least 32 bytes) where the wider
// tiles would leave fewer than half the target warps; chunks then make up
// for line groups below half of kScanWarpsPerSm * sm_count warps, at most
// as many as leave each chunk kScanMinTilesPerChunk tiles and each lane
// kScanMaxLookBackPerLane totals to fold.
ScanLayout PlanScanLayout(const std::vector<int64_t>& shape, int64_t axis, bool associative, int element_bytes,
                          int sm_count);

}  // namespace hlograph::gpu
