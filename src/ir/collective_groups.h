// The process groups of a collective, as the StableHLO spec defines them
// from replica_groups (or source_target_pairs), the channel id and
// use_global_device_ids, over a grid of replicas x partitions. Every
// backend that runs collectives reads them the same way:
//   cross_replica        for each partition, each group of replica ids;
//   cross_partition      for each replica, each group of partition ids;
//   cross_replica_and_partition  each group of replica ids in every partition;
//   flattened_ids        each group of ids replica * partitions + partition.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hlograph/status.h"
#include "ir/module.h"
#include "ir/operation.h"

namespace hlograph::ir {

// A device of the grid: (replica id, partition id).
using GridProcess = std::pair<int64_t, int64_t>;
using ProcessGroup = std::vector<GridProcess>;

enum class GroupScheme { kCrossReplica, kCrossPartition, kCrossReplicaAndPartition, kFlattenedIds };

// The op's channel_handle (or channel_id), 0 when it has none.
int64_t CollectiveChannelId(const Operation& op);

// The rows of a 2-D i64 elements attribute (replica_groups,
// source_target_pairs), -1 entries (padding of ragged groups) dropped; or
// the groups of a #stablehlo.replica_group_mesh_axes attribute.
StatusOr<std::vector<std::vector<int64_t>>> GroupRows(const Operation& op, const std::string& name,
                                                      const Module& module);

// all_reduce, all_gather, reduce_scatter: the scheme the channel and
// use_global_device_ids pick.
StatusOr<GroupScheme> ReplicaGroupScheme(const Operation& op);
// all_to_all, collective_broadcast, collective_permute.
GroupScheme ChannelScheme(const Operation& op);

std::vector<ProcessGroup> ProcessGroups(GroupScheme scheme, const std::vector<std::vector<int64_t>>& rows,
                                        int64_t replicas, int64_t partitions);

// The groups of an op reading replica_groups; no groups: one of every
// replica (or partition, cross_partition).
StatusOr<std::vector<ProcessGroup>> GroupsFromReplicaGroups(const Operation& op, const Module& module,
                                                            GroupScheme scheme, int64_t replicas, int64_t partitions);

// The processes a collective_permute pairs ids within: those of `me`'s
// partition (cross_replica) or of its replica (cross_partition).
ProcessGroup PermuteDomain(GroupScheme scheme, const GridProcess& me, int64_t replicas, int64_t partitions);

}  // namespace hlograph::ir
