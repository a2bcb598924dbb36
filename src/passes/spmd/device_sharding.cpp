#include "passes/spmd/device_sharding.h"

#include <algorithm>
#include <map>

namespace hlograph::passes::spmd {
namespace {

// Row-major index of the pieces `tile` holds along `dims`.
int64_t IndexAlong(const std::vector<int64_t>& tile, const std::vector<int64_t>& counts,
                   const std::vector<size_t>& dims) {
  int64_t index = 0;
  for (size_t d : dims) index = index * counts[d] + tile[d];
  return index;
}

}  // namespace

DeviceSharding DeviceSharding::Replicated(size_t rank, int64_t devices) {
  DeviceSharding s;
  s.counts.assign(rank, 1);
  s.tiles.assign(static_cast<size_t>(devices), std::vector<int64_t>(rank, 0));
  return s;
}

bool DeviceSharding::IsReplicated() const {
  return std::all_of(counts.begin(), counts.end(), [](int64_t c) { return c == 1; });
}

bool DeviceSharding::SameOnDim(size_t dim, const DeviceSharding& other, size_t other_dim) const {
  if (counts[dim] != other.counts[other_dim] || tiles.size() != other.tiles.size()) return false;
  for (size_t d = 0; d < tiles.size(); ++d) {
    if (tiles[d][dim] != other.tiles[d][other_dim]) return false;
  }
  return true;
}

bool DeviceSharding::Valid() const {
  int64_t pieces = 1;
  for (int64_t c : counts) pieces *= c;
  if (pieces < 1 || devices() % pieces != 0) return false;
  std::map<std::vector<int64_t>, int64_t> holders;
  for (const auto& tile : tiles) {
    for (size_t k = 0; k < tile.size(); ++k) {
      if (tile[k] < 0 || tile[k] >= counts[k]) return false;
    }
    ++holders[tile];
  }
  if (static_cast<int64_t>(holders.size()) != pieces) return false;
  return std::all_of(holders.begin(), holders.end(),
                     [&](const auto& h) { return h.second == devices() / pieces; });
}

DeviceSharding DeviceSharding::Without(size_t dim) const {
  DeviceSharding s = *this;
  s.counts[dim] = 1;
  for (auto& tile : s.tiles) tile[dim] = 0;
  return s;
}

DeviceSharding DeviceSharding::OnlyAlong(size_t dim) const {
  DeviceSharding s = *this;
  for (size_t d = 0; d < rank(); ++d) {
    if (d != dim) s = s.Without(d);
  }
  return s;
}

int64_t DeviceSharding::Pieces() const {
  int64_t n = 1;
  for (int64_t c : counts) n *= c;
  return n;
}

std::vector<size_t> DeviceSharding::CutDims() const {
  std::vector<size_t> cut;
  for (size_t d = 0; d < rank(); ++d) {
    if (counts[d] > 1) cut.push_back(d);
  }
  return cut;
}

StatusOr<std::vector<int64_t>> DeviceSharding::LocalShape(const std::vector<int64_t>& global) const {
  std::vector<int64_t> local = global;
  for (size_t d = 0; d < global.size(); ++d) {
    if (global[d] % counts[d] != 0) {
      return Status::Error("dimension " + std::to_string(d) + " of size " + std::to_string(global[d]) +
                           " does not divide into " + std::to_string(counts[d]) + " pieces");
    }
    local[d] = global[d] / counts[d];
  }
  return local;
}

StatusOr<std::vector<std::vector<int64_t>>> DeviceSharding::GroupsAlong(const std::vector<size_t>& dims) const {
  int64_t size = 1;
  for (size_t d : dims) size *= counts[d];
  // A device's copy number: how many devices before it hold its very piece.
  std::map<std::vector<int64_t>, int64_t> seen;
  std::map<std::pair<std::vector<int64_t>, int64_t>, std::vector<int64_t>> groups;
  std::vector<std::pair<std::vector<int64_t>, int64_t>> order;
  for (size_t d = 0; d < tiles.size(); ++d) {
    const int64_t copy = seen[tiles[d]]++;
    std::vector<int64_t> rest = tiles[d];
    for (size_t k : dims) rest[k] = 0;
    auto key = std::make_pair(rest, copy);
    auto [it, fresh] = groups.try_emplace(key, std::vector<int64_t>(static_cast<size_t>(size), -1));
    if (fresh) order.push_back(key);
    int64_t& slot = it->second[static_cast<size_t>(IndexAlong(tiles[d], counts, dims))];
    if (slot != -1) return Status::Error("the pieces of " + ToHlo() + " cannot be grouped for a collective");
    slot = static_cast<int64_t>(d);
  }
  std::vector<std::vector<int64_t>> out;
  for (const auto& key : order) {
    const auto& g = groups[key];
    if (std::find(g.begin(), g.end(), -1) != g.end()) {
      return Status::Error("the pieces of " + ToHlo() + " cannot be grouped for a collective");
    }
    out.push_back(g);
  }
  return out;
}

std::string DeviceSharding::ToHlo() const {
  if (IsReplicated()) return "{replicated}";
  int64_t pieces = 1;
  for (int64_t c : counts) pieces *= c;
  std::vector<size_t> all(rank());
  for (size_t k = 0; k < all.size(); ++k) all[k] = k;
  std::vector<std::vector<int64_t>> holders(static_cast<size_t>(pieces));
  for (size_t d = 0; d < tiles.size(); ++d) {
    holders[static_cast<size_t>(IndexAlong(tiles[d], counts, all))].push_back(static_cast<int64_t>(d));
  }
  return ir::TiledHloSharding(counts, devices() / pieces, holders);
}

StatusOr<DeviceSharding> FromLayout(const ir::ShardLayout& layout, int64_t devices) {
  DeviceSharding s = DeviceSharding::Replicated(layout.factors.size(), devices);
  if (layout.IsReplicated()) return s;
  if (layout.mesh.size() != devices) {
    return Status::Error("its mesh has " + std::to_string(layout.mesh.size()) + " devices, the program runs on " +
                         std::to_string(devices));
  }
  s.counts = layout.Counts();
  for (int64_t d = 0; d < devices; ++d) {
    HLOGRAPH_ASSIGN(const std::vector<int64_t> coordinates, layout.mesh.Coordinates(d));
    s.tiles[static_cast<size_t>(d)] = layout.TileOf(coordinates);
  }
  return s;
}

StatusOr<DeviceSharding> FromHlo(const ir::HloTileSharding& hlo, size_t rank, int64_t devices) {
  DeviceSharding s = DeviceSharding::Replicated(rank, devices);
  if (hlo.replicated) return s;
  if (hlo.tile_dims.size() != rank) {
    return Status::Error("tiles " + std::to_string(hlo.tile_dims.size()) + " dimensions of a value of rank " +
                         std::to_string(rank));
  }
  if (static_cast<int64_t>(hlo.devices.size()) != devices) {
    return Status::Error("names " + std::to_string(hlo.devices.size()) + " devices, the program runs on " +
                         std::to_string(devices));
  }
  s.counts = hlo.tile_dims;
  std::vector<bool> placed(static_cast<size_t>(devices), false);
  for (size_t i = 0; i < hlo.devices.size(); ++i) {
    const int64_t id = hlo.devices[i];
    if (id < 0 || id >= devices || placed[static_cast<size_t>(id)]) {
      return Status::Error("names device " + std::to_string(id) + " more than once or out of range");
    }
    placed[static_cast<size_t>(id)] = true;
    int64_t tile = static_cast<int64_t>(i) / hlo.copies;
    for (size_t k = rank; k-- > 0;) {
      s.tiles[static_cast<size_t>(id)][k] = tile % s.counts[k];
      tile /= s.counts[k];
    }
  }
  return s;
}

}  // namespace hlograph::passes::spmd
