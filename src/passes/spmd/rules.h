// How each kind of op is partitioned: given the new values of its operands
// (each with its sharding in the emitter), an op appends its per-device
// form and returns the values standing for its results, each given a
// sharding. An op no rule divides is computed whole on gathered operands
// (ComputeWhole); an op that cannot run that way either is refused with an
// error naming it and its operands' shardings.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "hlograph/status.h"
#include "ir/operation.h"
#include "passes/spmd/device_sharding.h"
#include "passes/spmd/emitter.h"

namespace hlograph::passes::spmd {

using Operands = std::vector<ir::Value*>;
using Results = StatusOr<std::vector<ir::Value*>>;

// Same-shaped operands and result, element by element (select and clamp
// with scalar operands included): every operand laid out as the most
// divided one.
Results Elementwise(Emitter& e, const ir::Operation& op, const Operands& operands);
// The layout an op of several operands of rank `rank` takes: of their
// layouts as the op reads them (`as_read`), the most divided; in a loop's
// body, of the values the body computes, so that what the body reads from
// outside the loop is moved once, before it, rather than the loop's own
// values every iteration.
DeviceSharding LayoutToTake(Emitter& e, const Operands& operands, size_t rank,
                            const std::function<DeviceSharding(DeviceSharding)>& as_read);
// broadcast_in_dim, transpose and reshape: the pieces follow the dims they
// move (a reshape keeps a dim's pieces when that dim leads the dims it
// merges or splits into; else the dim is gathered first).
Results BroadcastInDim(Emitter& e, const ir::Operation& op, const Operands& operands);
Results Transpose(Emitter& e, const ir::Operation& op, const Operands& operands);
Results Reshape(Emitter& e, const ir::Operation& op, const Operands& operands);
// reduce over sharded dims: each device reduces its piece, then the pieces'
// results are combined by an all_reduce of the same body.
Results Reduce(Emitter& e, const ir::Operation& op, const Operands& operands);
// dot_general: batch and contracting dims cut alike on both sides (the
// other side sliced to match), free dims' pieces carried to the result;
// a contraction cut into pieces gives partial sums, added by all_reduce
// (or reduce_scatter when `wanted` cuts the result as that would).
Results DotGeneral(Emitter& e, const ir::Operation& op, const Operands& operands, const DeviceSharding* wanted);
// Ops that read along some dims only, local along the others: those dims
// are made whole, the rest keep their pieces. slice, pad and reverse along
// the dims they change; concatenate along its dim; sort along its dim;
// reduce_window along the dims its window spans (strides, dilations and
// padding included); dynamic_slice and dynamic_update_slice along the dims
// they do not take (or update) whole.
Results Slice(Emitter& e, const ir::Operation& op, const Operands& operands);
Results DynamicSlice(Emitter& e, const ir::Operation& op, const Operands& operands);
Results DynamicUpdateSlice(Emitter& e, const ir::Operation& op, const Operands& operands);
Results Concatenate(Emitter& e, const ir::Operation& op, const Operands& operands);
Results Pad(Emitter& e, const ir::Operation& op, const Operands& operands);
Results Reverse(Emitter& e, const ir::Operation& op, const Operands& operands);
Results Sort(Emitter& e, const ir::Operation& op, const Operands& operands);
Results ReduceWindow(Emitter& e, const ir::Operation& op, const Operands& operands);
// fft along its fft_length's trailing dims, cholesky and triangular_solve
// along their matrices' two: each device transforms or factors its own
// batch of them.
Results AlongTrailingDims(Emitter& e, const ir::Operation& op, const Operands& operands, size_t dims);
// gather: the indices keep the pieces of their batch dims (each device
// looks up its own indices) in a whole operand, whose dims taken whole by
// every slice may keep their pieces too; the result is cut as they are.
Results Gather(Emitter& e, const ir::Operation& op, const Operands& operands);
// scatter adding updates cut along their batch dims: each device adds its
// updates into zeros, the groups' sums are added by all_reduce, then the
// operand.
Results Scatter(Emitter& e, const ir::Operation& op, const Operands& operands);
// The one dim the operand is cut along (by `operand`), when a single index
// component (`indices`, of integers) selects it (`index_map`) with windows
// of one element there (`one_element_dims`: collapsed or inserted); else
// nothing. Lookups and scatters on it run on each device's piece.
std::optional<size_t> IndexedCutDim(const DeviceSharding& operand, const std::vector<int64_t>& index_map,
                                    const std::vector<int64_t>& one_element_dims, const ir::Type& indices,
                                    int64_t index_vector_dim);
// `indices` less this device's offset along `dim` of `pieces` (pieces of
// `local_size`): the same elements' indices in its piece.
ir::Value* ShiftedIntoPiece(Emitter& e, ir::Value* indices, const DeviceSharding& pieces, size_t dim,
                            int64_t local_size);
// convolution: the batch dim's and the output features' pieces carried to
// the result, spatial dims whole; input features cut alike on both sides
// (as a weight gradient's contraction over the batch is) leave partial
// sums, added by all_reduce.
Results Convolution(Emitter& e, const ir::Operation& op, const Operands& operands);
// Any other op: its operands gathered whole, the op as it was, its results
// whole on every device. Refused for ops whose result depends on the device
// or that have effects (collectives, ids, random numbers, host transfers,
// side-effecting custom calls, manual computations) and for ops whose
// regions read values from outside them.
Results ComputeWhole(Emitter& e, const ir::Operation& op, const Operands& operands);

// Whether a region of `op` reads a value defined outside it (such an op
// cannot be copied into the per-device program as it is).
bool RegionsReadFromOutside(const ir::Operation& op);
// `op` copied on `operands` (already laid out as `s`), its results at
// their pieces' shapes under `s`, each given `s`.
Results EmitAt(Emitter& e, const ir::Operation& op, const Operands& operands, const DeviceSharding& s);

// "'stablehlo.sort' at file:3:5 (operand 0 sharded {devices=[4,1]0,1,2,3})": an op
// and its operands' shardings, for errors.
std::string Describe(Emitter& e, const ir::Operation& op, const Operands& operands);

}  // namespace hlograph::passes::spmd
