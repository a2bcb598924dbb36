// Shardy's meshes and tensor shardings, read from the attribute text the
// front end keeps verbatim (ir::OpaqueAttr), and where the pieces of a
// value sharded over a mesh are. A device's logical id is its place in the
// program's device assignment (replica * partitions + partition); a mesh
// lists the logical id at each of its positions (row-major over its axes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::ir {

struct MeshAxis {
  std::string name;
  int64_t size = 1;
};

struct Mesh {
  std::vector<MeshAxis> axes;
  std::vector<int64_t> device_ids;  // by position; empty: position = id

  int64_t size() const;
  std::optional<size_t> AxisIndex(std::string_view name) const;
  // One coordinate per axis for the device with logical id `device`.
  StatusOr<std::vector<int64_t>> Coordinates(int64_t device) const;
  int64_t DeviceAt(const std::vector<int64_t>& coordinates) const;
};

// An axis, or with `"x":(2)4` the factor of size 4 of its coordinate
// above the first 2 (coordinate / pre_size % size).
struct AxisRef {
  std::string name;
  int64_t pre_size = 1;
  int64_t size = 0;  // 0: the whole axis
};

// `#sdy.sharding<@mesh, [{"x"}, {}], replicated={"y"}>`.
struct TensorSharding {
  std::string mesh_name;  // empty with an inline mesh
  std::optional<Mesh> inline_mesh;
  std::vector<std::vector<AxisRef>> dims;  // each dimension's axes, major first
  std::vector<AxisRef> unreduced;
  std::string text;  // as written, for messages
};

// The text of an sdy.mesh op's `mesh` attribute (`#sdy.mesh<["x"=4]>`).
StatusOr<Mesh> ParseMesh(std::string_view text);
StatusOr<TensorSharding> ParseTensorSharding(std::string_view text);
// `#sdy.sharding_per_value<[<@mesh, [...]>, ...]>` (manual_computation's
// in_shardings and out_shardings).
StatusOr<std::vector<TensorSharding>> ParseShardingPerValue(std::string_view text);
// `#sdy<manual_axes{"x", "y"}>`.
StatusOr<std::vector<std::string>> ParseManualAxes(std::string_view text);
// `#stablehlo.replica_group_mesh_axes<mesh = @m, axes = [...]>`: the groups
// of devices that differ only along `axes`.
struct MeshAxesGroups {
  std::string mesh_name;
  std::vector<AxisRef> axes;
};
StatusOr<MeshAxesGroups> ParseReplicaGroupMeshAxes(std::string_view text);

// The module's sdy.mesh named `name`.
StatusOr<Mesh> LookupMesh(const Module& module, const std::string& name);
// The sharding's inline mesh, or the module's mesh it names.
StatusOr<Mesh> MeshOf(const Module& module, const TensorSharding& sharding);

// The groups of logical ids `groups` describes: for each setting of the
// other axes, the devices along `groups.axes` (the first axis major).
StatusOr<std::vector<std::vector<int64_t>>> MeshAxesDeviceGroups(const Mesh& mesh, const MeshAxesGroups& groups);

// A mesh axis or a factor of one (AxisRef), by the axis's index.
struct MeshFactor {
  size_t axis = 0;
  int64_t pre_size = 1, size = 1;
  int64_t Of(const std::vector<int64_t>& coordinates) const { return coordinates[axis] / pre_size % size; }
};

// Where the pieces of a value sharded over a mesh are: dimension d is cut
// into as many pieces as the product of the sizes of factors[d] (major
// first). Devices that differ only along other axes hold the same piece.
struct ShardLayout {
  Mesh mesh;
  std::vector<std::vector<MeshFactor>> factors;

  std::vector<int64_t> Counts() const;
  bool IsReplicated() const;
  // The piece the device at `coordinates` holds.
  std::vector<int64_t> TileOf(const std::vector<int64_t>& coordinates) const;
  // The device holding piece `tile` among those sharing `coordinates` off
  // the layout's axes.
  int64_t DeviceOfTile(const std::vector<int64_t>& coordinates, const std::vector<int64_t>& tile) const;
  // A device's share of `global`; an error when a dimension does not divide.
  StatusOr<std::vector<int64_t>> LocalShape(const std::vector<int64_t>& global) const;
};

// The layout of a value of rank `rank` with `sharding` over `mesh`. With
// `only_axes`, the other axes are left out (a manual computation cuts its
// operands along its manual axes only). Sub-axes and unreduced axes are
// refused.
StatusOr<ShardLayout> LayoutOf(const Mesh& mesh, const TensorSharding& sharding, size_t rank,
                               const std::vector<std::string>* only_axes = nullptr);

// The layout as XLA's HloSharding text: "{replicated}", or
// "{devices=[2,1,2]0,2,1,3 last_tile_dim_replicate}".
std::string ToHloSharding(const ShardLayout& layout);

// A tiled HloSharding's text: `counts` pieces along each dim, each held by
// `copies` devices, `holders[t]` the devices of tile t (row-major over the
// counts) in order.
std::string TiledHloSharding(const std::vector<int64_t>& counts, int64_t copies,
                             const std::vector<std::vector<int64_t>>& holders);

}  // namespace hlograph::ir
