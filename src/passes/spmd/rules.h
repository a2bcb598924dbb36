// How each kind of op is partitioned: given the new values of its operands
// (each with its sharding in the emitter), an op appends its per-device
// form and returns the values standing for its results, each given a
// sharding. An op no rule divides is computed whole on gathered operands
// (ComputeWhole); an op that cannot run that way either is refused with an
// error naming it and its operands' shardings.
#pragma once

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
// Any other op: its operands gathered whole, the op as it was, its results
// whole on every device. Refused for ops whose result depends on the device
// or that have effects (collectives, ids, random numbers, host transfers,
// side-effecting custom calls, manual computations) and for ops whose
// regions read values from outside them.
Results ComputeWhole(Emitter& e, const ir::Operation& op, const Operands& operands);

// "'stablehlo.sort' at file:3:5 (operand 0 sharded {devices=[4,1]0,1,2,3})": an op
// and its operands' shardings, for errors.
std::string Describe(Emitter& e, const ir::Operation& op, const Operands& operands);

}  // namespace hlograph::passes::spmd
