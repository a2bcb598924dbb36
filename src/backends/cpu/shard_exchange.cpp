#include "backends/cpu/shard_exchange.h"

#include <limits>

#include "backends/cpu/tiles.h"

namespace hlograph::cpu {
namespace {

// The channel of these exchanges: none a program's collective can use.
constexpr int64_t kPieceChannel = std::numeric_limits<int64_t>::min();

Status CheckMesh(const DeviceContext& device, const ir::ShardLayout& layout) {
  const int64_t devices = device.grid->replicas() * device.grid->partitions();
  if (layout.mesh.size() != devices) {
    return Status::Error("a sharding's mesh has " + std::to_string(layout.mesh.size()) + " devices, the run " +
                         std::to_string(devices));
  }
  return Status::Ok();
}

}  // namespace

int64_t LogicalId(const DeviceContext& device) {
  return device.process.first * device.grid->partitions() + device.process.second;
}

StatusOr<Tensor> LocalPiece(const DeviceContext& device, const ir::ShardLayout& layout, const Tensor& global) {
  if (layout.IsReplicated()) return global;
  HLOGRAPH_TRY(CheckMesh(device, layout));
  HLOGRAPH_TRY(layout.LocalShape(global.shape()).status());
  HLOGRAPH_ASSIGN(const std::vector<int64_t> coordinates, layout.mesh.Coordinates(LogicalId(device)));
  return CutTile(global, layout.Counts(), layout.TileOf(coordinates));
}

StatusOr<std::vector<Tensor>> Assemble(const DeviceContext& device, const std::vector<ir::ShardLayout>& layouts,
                                       const std::vector<ir::Type>& types, std::vector<Tensor> pieces) {
  bool any_sharded = false;
  for (const ir::ShardLayout& l : layouts) {
    HLOGRAPH_TRY(l.IsReplicated() ? Status::Ok() : CheckMesh(device, l));
    any_sharded |= !l.IsReplicated();
  }
  if (!any_sharded) return pieces;
  const int64_t devices = device.grid->replicas() * device.grid->partitions();
  std::vector<Process> everyone;
  for (int64_t id = 0; id < devices; ++id) {
    everyone.emplace_back(id / device.grid->partitions(), id % device.grid->partitions());
  }
  HLOGRAPH_ASSIGN(const std::vector<std::vector<Tensor>> all,
                  device.grid->Exchange(everyone, device.process, kPieceChannel, pieces));
  std::vector<Tensor> out;
  for (size_t v = 0; v < layouts.size(); ++v) {
    const ir::ShardLayout& layout = layouts[v];
    if (layout.IsReplicated()) {
      out.push_back(std::move(pieces[v]));
      continue;
    }
    HLOGRAPH_ASSIGN(const std::vector<int64_t> coordinates, layout.mesh.Coordinates(LogicalId(device)));
    HLOGRAPH_ASSIGN(const std::vector<int64_t> local, layout.LocalShape(types[v].shape()));
    const std::vector<int64_t> counts = layout.Counts();
    Tensor whole(types[v]);
    Status placed = Status::Ok();
    ForEachIndex(counts, [&](const std::vector<int64_t>& tile) {
      const Tensor& piece = all[static_cast<size_t>(layout.DeviceOfTile(coordinates, tile))][v];
      if (piece.shape() != local || piece.element() != whole.element()) {
        placed = Status::Error("a device's piece is a " + piece.type().ToString() + " where the pieces of a " +
                               types[v].ToString() + " are " + types[v].WithShape(local).ToString());
        return;
      }
      PlaceTile(whole, counts, tile, piece);
    });
    HLOGRAPH_TRY(placed);
    out.push_back(std::move(whole));
  }
  return out;
}

}  // namespace hlograph::cpu
