// The per-device entry block as the partitioner builds it: each new value
// has its device-local type and a sharding (what piece of the global value
// each device holds), and values move between shardings through
// collectives (all_gather to join pieces, all_reduce and reduce_scatter to
// sum partial results) or a slice at the device's offset (partition_id) to
// cut a whole value into pieces.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "hlograph/status.h"
#include "ir/operation.h"
#include "passes/op_builder.h"
#include "passes/spmd/device_sharding.h"

namespace hlograph::passes::spmd {

class Emitter {
 public:
  Emitter(ir::Block& block, int64_t devices) : block_(&block), devices_(devices) {}
  int64_t devices() const { return devices_; }

  // Emits into `block` (a region of an op being built: a loop's body)
  // while the scope lives, then into the block before. What was made in
  // there (resharded values, the partition id) is not reused after; a
  // value from outside is resharded out there, once, before the op.
  class Scope {
   public:
    Scope(Emitter& e, ir::Block& block);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    friend class Emitter;
    // Swaps the emitter's block, moves and partition id with those saved
    // here (entering the enclosing block, or coming back).
    void Swap();
    Emitter& e_;
    ir::Block* block_;
    std::map<std::pair<const ir::Value*, std::string>, ir::Value*> moved_;
    ir::Value* partition_;
  };

  // The op new ops stand for (their position and location).
  void set_origin(const ir::Operation& op) { origin_ = &op; }
  OpBuilder Here() { return OpBuilder(*block_, block_->operations().size(), *origin_); }
  // Appends `op` (built by the caller) to the block.
  ir::Operation* Append(std::unique_ptr<ir::Operation> op) { return block_->Append(std::move(op)); }

  // A value no rule gave a sharding (a constant made here) is whole.
  // A copy of `op` on `operands` with results of `types` (sharding
  // attributes dropped: they described global values), appended.
  ir::Operation* Copy(const ir::Operation& op, const std::vector<ir::Value*>& operands,
                      const std::vector<ir::Type>& types);

  const DeviceSharding& ShardingOf(const ir::Value* v);
  // Whether `v` was made outside the region being emitted into (a loop's
  // body reading a value from before the loop); false outside any loop.
  bool FromOutsideTheLoop(const ir::Value* v) const;
  // Whole on every device, at `v`'s rank.
  DeviceSharding Whole(const ir::Value* v) const {
    return DeviceSharding::Replicated(v->type().IsTensor() ? v->type().shape().size() : 0, devices_);
  }
  void SetSharding(const ir::Value* v, DeviceSharding s) { shardings_[v] = std::move(s); }

  // `v` laid out as `target` (same rank): a cut moved from one dim to
  // another by all_to_all, the pieces along dims cut otherwise gathered,
  // then cut as `target` says.
  StatusOr<ir::Value*> Reshard(ir::Value* v, const DeviceSharding& target);
  // Joins the pieces of dimension `dim` (all_gather).
  StatusOr<ir::Value*> AllGather(ir::Value* v, size_t dim);
  // Each piece of `v`'s cut dim `dim` extended by the last `low` elements
  // of the piece before it and the first `high` of the piece after
  // (collective_permute): zeros past the ends, as a convolution's padding
  // is. The result overlaps its neighbours' (it has no sharding of its
  // own); each side at most a piece long.
  ir::Value* WithHalo(ir::Value* v, size_t dim, int64_t low, int64_t high);
  // Moves the cut of dim `from` to dim `to` (whole in `v`): each group's
  // member holding piece k of `from` ends with piece k of `to` and the
  // whole of `from` (all_to_all).
  StatusOr<ir::Value*> AllToAll(ir::Value* v, size_t from, size_t to);
  // Each group's values combined by `body` (a two-scalar region), or added
  // when `body` is null; every member gets the result. `v`'s sharding is
  // kept.
  ir::Value* AllReduce(ir::Value* v, const std::vector<std::vector<int64_t>>& groups, const ir::Region* body);
  // The groups' values added and cut along `dim`, member k of a group
  // getting piece k; the result's sharding is `result`.
  ir::Value* ReduceScatter(ir::Value* v, const std::vector<std::vector<int64_t>>& groups, size_t dim,
                           const DeviceSharding& result);

  // This device's offset along `dim` of `target` (pieces of `local_size`)
  // as a scalar i32.
  ir::Value* Offset(const DeviceSharding& target, size_t dim, int64_t local_size);

  // What was emitted, for the report: collectives by name.
  const std::map<std::string, int>& counts() const { return counts_; }
  // Ops computed whole on gathered pieces, by name, for the report.
  void NoteWhole(const std::string& op) { ++whole_[op]; }
  const std::map<std::string, int>& whole() const { return whole_; }

 private:
  // Reshard's work, done once per value and target.
  StatusOr<ir::Value*> Move(ir::Value* v, const DeviceSharding& target);
  // Cuts `v` (whole along every dim where it differs from `target`) into
  // `target`'s pieces: a slice at offsets looked up by partition_id.
  StatusOr<ir::Value*> Slice(ir::Value* v, const DeviceSharding& target);
  // `v` made again at `type` when its op can make any piece directly (a
  // splat constant, an iota, a broadcast of a piece of its operand, an
  // elementwise op on such values), else null.
  ir::Value* Remake(ir::Value* v, const ir::Type& type, const DeviceSharding& target);
  // Whether `v` is made here from nothing any device lacks: splat
  // constants, iotas, broadcasts, and elementwise ops on such values.
  bool Remakeable(const ir::Value* v, int depth) const;
  // An iota's piece: an iota at the piece's shape counting from the
  // piece's offset.
  ir::Value* RemakeIota(const ir::Operation& iota, const ir::Type& type, const DeviceSharding& target);
  // The dim of `target` that can take over the cut of `v`'s dim `from` by
  // all_to_all (whole in `v`, cut by the same devices the same way in
  // `target`, divisible), or -1.
  int64_t AllToAllTarget(ir::Value* v, size_t from, const DeviceSharding& target);
  ir::Operation* Collective(ir::OpId id, ir::Value* v, const ir::Type& type,
                            const std::vector<std::vector<int64_t>>& groups);

  ir::Block* block_;
  std::vector<Scope*> scopes_;  // the blocks enclosing block_, innermost last
  const int64_t devices_;
  const ir::Operation* origin_ = nullptr;
  std::unordered_map<const ir::Value*, DeviceSharding> shardings_;
  std::map<std::pair<const ir::Value*, std::string>, ir::Value*> moved_;  // by Reshard
  ir::Value* partition_ = nullptr;  // partition_id as i32, made once
  int64_t next_channel_ = 1;
  std::map<std::string, int> counts_;
  std::map<std::string, int> whole_;
};

}  // namespace hlograph::passes::spmd
