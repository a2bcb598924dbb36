// A value's sharding as the partitioner reasons about it: how many pieces
// each dimension is cut into, and which piece every device (logical id
// 0..N-1) holds. Shardy meshes and GSPMD tile assignments both become
// this, so values annotated either way compare directly, and the groups of
// a collective follow from it without a mesh.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "hlograph/status.h"
#include "ir/hlo_sharding.h"
#include "ir/sharding.h"

namespace hlograph::passes::spmd {

struct DeviceSharding {
  std::vector<int64_t> counts;              // pieces per dimension
  std::vector<std::vector<int64_t>> tiles;  // tiles[device][dim]: the piece it holds

  static DeviceSharding Replicated(size_t rank, int64_t devices);
  size_t rank() const { return counts.size(); }
  int64_t devices() const { return static_cast<int64_t>(tiles.size()); }
  bool IsReplicated() const;
  // Dimension `dim` cut the same way on both (the same count, each device
  // the same piece).
  bool SameOnDim(size_t dim, const DeviceSharding& other, size_t other_dim) const;
  bool operator==(const DeviceSharding& other) const { return counts == other.counts && tiles == other.tiles; }
  // Every combination of pieces held by the same number of devices: a
  // sharding a value can have (a product of two shardings may not be one).
  bool Valid() const;
  // `dim` whole (one piece) on every device.
  DeviceSharding Without(size_t dim) const;
  // Every dim but `dim` whole; `dim` cut as here.
  DeviceSharding OnlyAlong(size_t dim) const;
  // The dims cut into more than one piece.
  std::vector<size_t> CutDims() const;
  // How many pieces the value is cut into (1: whole).
  int64_t Pieces() const;
  // A device's share of `global`; an error when a dimension does not divide.
  StatusOr<std::vector<int64_t>> LocalShape(const std::vector<int64_t>& global) const;
  // The groups of devices that together hold every piece along `dims` and
  // agree on the other dims, each ordered by the piece (row-major over
  // `dims`): what a collective over those dims joins. Copies of a piece go
  // to different groups. An error when the pieces cannot be grouped so.
  StatusOr<std::vector<std::vector<int64_t>>> GroupsAlong(const std::vector<size_t>& dims) const;
  // As XLA writes it: "{replicated}", "{devices=[4,1,2]0,1,... last_tile_dim_replicate}".
  std::string ToHlo() const;
};

// From a Shardy layout over a mesh of `devices` devices (or a replicated one
// over any mesh).
StatusOr<DeviceSharding> FromLayout(const ir::ShardLayout& layout, int64_t devices);
// From a GSPMD tile assignment of a value of rank `rank`.
StatusOr<DeviceSharding> FromHlo(const ir::HloTileSharding& hlo, size_t rank, int64_t devices);

}  // namespace hlograph::passes::spmd
