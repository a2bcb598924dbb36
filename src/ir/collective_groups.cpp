#include "ir/collective_groups.h"

#include <algorithm>

#include "ir/attribute.h"
#include "ir/sharding.h"
#include "ir/verify/verify_util.h"

namespace hlograph::ir {

int64_t CollectiveChannelId(const Operation& op) {
  if (const auto* h = op.attr("channel_handle").as<ChannelHandleAttr>()) return h->handle;
  if (const auto* id = op.attr("channel_id").as<IntegerAttr>()) return id->value;
  return 0;
}

StatusOr<std::vector<std::vector<int64_t>>> GroupRows(const Operation& op, const std::string& name,
                                                      const Module& module) {
  if (const auto* mesh_axes = op.attr(name).as<OpaqueAttr>()) {
    HLOGRAPH_ASSIGN(const MeshAxesGroups groups, ParseReplicaGroupMeshAxes(mesh_axes->text));
    HLOGRAPH_ASSIGN(const Mesh mesh, LookupMesh(module, groups.mesh_name));
    return MeshAxesDeviceGroups(mesh, groups);
  }
  const auto* attr = op.attr(name).as<DenseElementsAttr>();
  if (attr == nullptr) return Status::Error("expects " + name + " as dense<...> : tensor<NxMxi64>");
  const auto values = verify::IntElements(*attr);
  if (!values || attr->type.rank() != 2) return Status::Error("expects " + name + " as a 2-D integer tensor");
  std::vector<std::vector<int64_t>> rows;
  const int64_t n = attr->type.dim(0), m = attr->type.dim(1);
  for (int64_t i = 0; i < n; ++i) {
    std::vector<int64_t> row;
    for (int64_t j = 0; j < m; ++j) {
      const int64_t v = attr->splat ? (*values)[0] : (*values)[static_cast<size_t>(i * m + j)];
      if (v >= 0) row.push_back(v);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

StatusOr<GroupScheme> ReplicaGroupScheme(const Operation& op) {
  const bool global = static_cast<bool>(op.attr("use_global_device_ids"));
  const int64_t channel = CollectiveChannelId(op);
  if (channel <= 0 && global) return Status::Error("use_global_device_ids needs a channel_handle above 0");
  if (channel <= 0) return GroupScheme::kCrossReplica;
  return global ? GroupScheme::kFlattenedIds : GroupScheme::kCrossReplicaAndPartition;
}

GroupScheme ChannelScheme(const Operation& op) {
  return CollectiveChannelId(op) <= 0 ? GroupScheme::kCrossReplica : GroupScheme::kCrossPartition;
}

std::vector<ProcessGroup> ProcessGroups(GroupScheme scheme, const std::vector<std::vector<int64_t>>& rows,
                                        int64_t replicas, int64_t partitions) {
  std::vector<ProcessGroup> groups;
  const int64_t R = replicas, P = partitions;
  switch (scheme) {
    case GroupScheme::kCrossReplica:
      for (int64_t p = 0; p < P; ++p) {
        for (const auto& row : rows) {
          ProcessGroup g;
          for (int64_t r : row) g.emplace_back(r, p);
          groups.push_back(std::move(g));
        }
      }
      break;
    case GroupScheme::kCrossPartition:
      for (int64_t r = 0; r < R; ++r) {
        for (const auto& row : rows) {
          ProcessGroup g;
          for (int64_t p : row) g.emplace_back(r, p);
          groups.push_back(std::move(g));
        }
      }
      break;
    case GroupScheme::kCrossReplicaAndPartition:  // partitions outer, the group's replicas inner
      for (const auto& row : rows) {
        ProcessGroup g;
        for (int64_t p = 0; p < P; ++p) {
          for (int64_t r : row) g.emplace_back(r, p);
        }
        groups.push_back(std::move(g));
      }
      break;
    case GroupScheme::kFlattenedIds:
      for (const auto& row : rows) {
        ProcessGroup g;
        for (int64_t id : row) g.emplace_back(id / P, id % P);
        groups.push_back(std::move(g));
      }
      break;
  }
  return groups;
}

StatusOr<std::vector<ProcessGroup>> GroupsFromReplicaGroups(const Operation& op, const Module& module,
                                                            GroupScheme scheme, int64_t replicas, int64_t partitions) {
  HLOGRAPH_ASSIGN(std::vector<std::vector<int64_t>> rows, GroupRows(op, "replica_groups", module));
  rows.erase(std::remove_if(rows.begin(), rows.end(), [](const auto& r) { return r.empty(); }), rows.end());
  if (rows.empty()) {
    const int64_t n = scheme == GroupScheme::kCrossPartition ? partitions : replicas;
    std::vector<int64_t> all;
    for (int64_t i = 0; i < n; ++i) all.push_back(i);
    rows.push_back(all);
  }
  return ProcessGroups(scheme, rows, replicas, partitions);
}

ProcessGroup PermuteDomain(GroupScheme scheme, const GridProcess& me, int64_t replicas, int64_t partitions) {
  ProcessGroup g;
  const int64_t n = scheme == GroupScheme::kCrossReplica ? replicas : partitions;
  for (int64_t i = 0; i < n; ++i) {
    g.push_back(scheme == GroupScheme::kCrossReplica ? GridProcess{i, me.second} : GridProcess{me.first, i});
  }
  return g;
}

}  // namespace hlograph::ir
