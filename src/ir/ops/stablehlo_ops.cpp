// Declarations of every StableHLO op: counts, attributes, pretty syntax and
// verifier. Syntax strings follow ir/op_syntax.h.
#include "ir/ops/op_tables.h"
#include "ir/verify/verifiers.h"

namespace hlograph::ir {
namespace {

using K = AttrKind;
constexpr int V = kVariadic;

OpDefBuilder Op(const char* short_name) { return OpDefBuilder(std::string("stablehlo.") + short_name); }

// Attributes shared by the collectives.
OpDefBuilder Collective(const char* name) {
  return Op(name)
      .Attr("replica_groups", K::kAny)  // dense<...> or #stablehlo.replica_group_mesh_axes
      .OptAttr("channel_handle", K::kChannelHandle)
      .OptAttr("use_global_device_ids", K::kUnit);
}

}  // namespace

void AddStablehloOps(std::vector<OpDef>& ops) {
  ops.push_back(Op("select").Operands(3).Syntax("ops dict :select").Verify(verify::Select).Build());
  ops.push_back(Op("clamp").Operands(3).Syntax("ops dict :same").Verify(verify::Clamp).Build());
  ops.push_back(Op("compare")
                    .Operands(2)
                    .Attr("comparison_direction", K::kEnum, "comparison_direction")
                    .OptAttr("compare_type", K::kEnum, "comparison_type")
                    .Syntax("$comparison_direction , ops ?[ , $compare_type ]? dict :fn")
                    .Traits(kElementwise)
                    .Verify(verify::Compare)
                    .Build());
  ops.push_back(Op("reduce_precision")
                    .Operands(1)
                    .Attr("exponent_bits", K::kI32)
                    .Attr("mantissa_bits", K::kI32)
                    .Syntax("op0 , format = custom:precision_format dict :same")
                    .Traits(kElementwise)
                    .Verify(verify::ReducePrecision)
                    .Build());

  // Constants and shape producers.
  ops.push_back(Op("constant").Operands(0).Attr("value", K::kElements).Syntax("dict custom:constant")
                    .Verify(verify::Constant).Build());
  ops.push_back(Op("iota").Operands(0).Attr("iota_dimension", K::kI64).Syntax("dim = $iota_dimension dict :result")
                    .Verify(verify::Iota).Build());
  ops.push_back(Op("dynamic_iota").Operands(1).Attr("iota_dimension", K::kI64)
                    .Syntax("op0 , dim = $iota_dimension dict :fn").Build());

  // Data movement.
  ops.push_back(Op("broadcast_in_dim").Operands(1).Attr("broadcast_dimensions", K::kI64Array)
                    .Syntax("op0 , dims = $broadcast_dimensions dict :fn").Verify(verify::BroadcastInDim).Build());
  ops.push_back(Op("broadcast").Operands(1).Attr("broadcast_sizes", K::kI64Array)
                    .Syntax("op0 , sizes = $broadcast_sizes dict :fn").Verify(verify::Broadcast).Build());
  ops.push_back(Op("dynamic_broadcast_in_dim").Operands(2).Attr("broadcast_dimensions", K::kI64Array)
                    .OptAttr("known_expanding_dimensions", K::kI64Array)
                    .OptAttr("known_nonexpanding_dimensions", K::kI64Array)
                    .Syntax("ops , dims = $broadcast_dimensions dict :fn").Build());
  ops.push_back(Op("reshape").Operands(1).Syntax("op0 dict :fn").Verify(verify::Reshape).Build());
  ops.push_back(Op("dynamic_reshape").Operands(2).Syntax("ops dict :fn").Build());
  ops.push_back(Op("transpose").Operands(1).Attr("permutation", K::kI64Array)
                    .Syntax("op0 , dims = $permutation dict :fn").Verify(verify::Transpose).Build());
  ops.push_back(Op("reverse").Operands(1).Attr("dimensions", K::kI64Array)
                    .Syntax("op0 , dims = $dimensions dict :same").Verify(verify::Reverse).Build());
  ops.push_back(Op("slice").Operands(1).Attr("start_indices", K::kI64Array).Attr("limit_indices", K::kI64Array)
                    .Attr("strides", K::kI64Array).Syntax("op0 custom:slice_ranges dict :fn")
                    .Verify(verify::Slice).Build());
  ops.push_back(Op("real_dynamic_slice").Operands(4).Syntax("ops dict :fn").Build());
  ops.push_back(Op("dynamic_slice").Operands(V).Attr("slice_sizes", K::kI64Array)
                    .Syntax("ops , sizes = $slice_sizes dict :fn").Verify(verify::DynamicSlice).Build());
  ops.push_back(Op("dynamic_update_slice").Operands(V).Syntax("ops dict :fn")
                    .Verify(verify::DynamicUpdateSlice).Build());
  ops.push_back(Op("concatenate").Operands(V).Attr("dimension", K::kI64)
                    .Syntax("ops , dim = $dimension dict :fn").Verify(verify::Concatenate).Build());
  ops.push_back(Op("pad").Operands(2).Attr("edge_padding_low", K::kI64Array)
                    .Attr("edge_padding_high", K::kI64Array).Attr("interior_padding", K::kI64Array)
                    .Syntax("ops , low = $edge_padding_low , high = $edge_padding_high , interior = "
                            "$interior_padding dict :fn")
                    .Verify(verify::Pad).Build());
  ops.push_back(Op("dynamic_pad").Operands(5).Syntax("ops dict :fn").Build());
  ops.push_back(Op("gather").Operands(2).Attr("dimension_numbers", K::kGatherDims)
                    .Attr("slice_sizes", K::kI64Array).OptAttr("indices_are_sorted", K::kBool)
                    .Verify(verify::Gather).Build());
  ops.push_back(Op("dynamic_gather").Operands(3).Attr("dimension_numbers", K::kGatherDims)
                    .OptAttr("indices_are_sorted", K::kBool).Build());
  ops.push_back(Op("scatter").Operands(V).Results(V).Regions(1).Attr("scatter_dimension_numbers", K::kScatterDims)
                    .OptAttr("indices_are_sorted", K::kBool).OptAttr("unique_indices", K::kBool)
                    .Verify(verify::Scatter).Build());
  ops.push_back(Op("torch_index_select").Operands(2).Attr("dim", K::kI64).Attr("batch_dims", K::kI64).Build());
  ops.push_back(Op("get_dimension_size").Operands(1).Attr("dimension", K::kI64)
                    .Syntax("op0 , dim = $dimension dict :fn").Verify(verify::GetDimensionSize).Build());

  // Tuples and tokens.
  ops.push_back(Op("tuple").Operands(V).Syntax("ops dict :result").Verify(verify::Tuple).Build());
  ops.push_back(Op("get_tuple_element").Operands(1).Attr("index", K::kI32)
                    .Syntax("op0 ^[ $index ] dict :fn").Verify(verify::GetTupleElement).Build());
  ops.push_back(Op("create_token").Operands(0).Syntax("dict :result").Build());
  ops.push_back(Op("after_all").Operands(V).Syntax("ops dict :result").Verify(verify::AfterAll).Build());
  ops.push_back(Op("optimization_barrier").Operands(V).Results(V).Syntax("ops dict :operands")
                    .Verify(verify::OptimizationBarrier).Build());

  // Linear algebra.
  ops.push_back(Op("dot").Operands(2).OptAttr("precision_config", K::kEnumArray, "precision")
                    .Syntax("ops ?[ , precision = $precision_config ]? dict :fn").Verify(verify::Dot).Build());
  ops.push_back(Op("dot_general")
                    .Operands(2)
                    .Attr("dot_dimension_numbers", K::kDotDims)
                    .OptAttr("precision_config", K::kEnumArray, "precision")
                    .OptAttr("algorithm", K::kDialectBody, "#stablehlo.dot_algorithm|")
                    .Syntax("ops , custom:dot_dims ?[ , precision = $precision_config ]? "
                            "?[ , algorithm = $algorithm ]? dict :fn")
                    .Verify(verify::DotGeneral)
                    .Build());
  ops.push_back(Op("einsum").Operands(2).Attr("einsum_config", K::kString)
                    .Syntax("ops , config = $einsum_config dict :fn").Build());
  ops.push_back(Op("unary_einsum").Operands(1).Attr("einsum_config", K::kString)
                    .Syntax("op0 , config = $einsum_config dict :fn").Build());
  ops.push_back(Op("convolution")
                    .Operands(2)
                    .OptAttr("window_strides", K::kI64Array)
                    .OptAttr("padding", K::kI64Elements)
                    .OptAttr("lhs_dilation", K::kI64Array)
                    .OptAttr("rhs_dilation", K::kI64Array)
                    .OptAttr("window_reversal", K::kBoolArray)
                    .Attr("dimension_numbers", K::kConvDims)
                    .Attr("feature_group_count", K::kI64)
                    .Attr("batch_group_count", K::kI64)
                    .OptAttr("precision_config", K::kEnumArray, "precision")
                    .Syntax("^( ops ) dim_numbers = $dimension_numbers custom:conv_window dict :fn")
                    .Verify(verify::Convolution)
                    .Build());
  ops.push_back(Op("dynamic_conv")
                    .Operands(3)
                    .OptAttr("window_strides", K::kI64Array)
                    .OptAttr("lhs_dilation", K::kI64Array)
                    .OptAttr("rhs_dilation", K::kI64Array)
                    .OptAttr("window_reversal", K::kBoolArray)
                    .Attr("dimension_numbers", K::kConvDims)
                    .Attr("feature_group_count", K::kI64)
                    .Attr("batch_group_count", K::kI64)
                    .OptAttr("precision_config", K::kEnumArray, "precision")
                    .Build());
  ops.push_back(Op("cholesky").Operands(1).OptAttr("lower", K::kBool)
                    .Syntax("op0 ?[ , lower = $lower ]? dict :same").Verify(verify::Cholesky).Build());
  ops.push_back(Op("triangular_solve")
                    .Operands(2)
                    .Attr("left_side", K::kBool)
                    .Attr("lower", K::kBool)
                    .Attr("unit_diagonal", K::kBool)
                    .Attr("transpose_a", K::kEnum, "transpose")
                    .Verify(verify::TriangularSolve)
                    .Build());
  ops.push_back(Op("fft").Operands(1).Attr("fft_type", K::kEnum, "fft_type").Attr("fft_length", K::kI64Array)
                    .Syntax("op0 , type = $fft_type , length = $fft_length dict :fn").Verify(verify::Fft).Build());
  for (const char* name : {"batch_norm_training", "batch_norm_inference", "batch_norm_grad"}) {
    int operands = std::string(name) == "batch_norm_training" ? 3 : 5;
    int results = std::string(name) == "batch_norm_inference" ? 1 : 3;
    ops.push_back(Op(name).Operands(operands).Results(results).Attr("epsilon", K::kFloat)
                      .Attr("feature_index", K::kI64).Verify(verify::BatchNorm).Build());
  }

  // Reductions, windows and sorting (regions hold the combiner).
  ops.push_back(Op("reduce").Operands(V).Results(V).Regions(1).Attr("dimensions", K::kI64Array)
                    .Syntax("custom:reduce").Verify(verify::Reduce).Build());
  ops.push_back(Op("reduce_window")
                    .Operands(V)
                    .Results(V)
                    .Regions(1)
                    .Attr("window_dimensions", K::kI64Array)
                    .OptAttr("window_strides", K::kI64Array)
                    .OptAttr("base_dilations", K::kI64Array)
                    .OptAttr("window_dilations", K::kI64Array)
                    .OptAttr("padding", K::kI64Elements)
                    .Verify(verify::ReduceWindow)
                    .Build());
  ops.push_back(Op("select_and_scatter")
                    .Operands(3)
                    .Regions(2)
                    .OptAttr("window_dimensions", K::kI64Array)
                    .OptAttr("window_strides", K::kI64Array)
                    .OptAttr("padding", K::kI64Elements)
                    .Verify(verify::SelectAndScatter)
                    .Build());
  ops.push_back(Op("sort").Operands(V).Results(V).Regions(1).OptAttr("dimension", K::kI64)
                    .OptAttr("is_stable", K::kBool).Verify(verify::Sort).Build());
  ops.push_back(Op("map").Operands(V).Regions(1).Attr("dimensions", K::kI64Array).Verify(verify::Map).Build());

  // Control flow.
  ops.push_back(Op("while").Operands(V).Results(V).Regions(2).Syntax("custom:while").Verify(verify::While).Build());
  ops.push_back(Op("if").Operands(1).Results(V).Regions(2).Verify(verify::If).Build());
  ops.push_back(Op("case").Operands(1).Results(V).Regions(V).Verify(verify::Case).Build());
  ops.push_back(Op("return").Operands(V).Results(0).Syntax("ops dict :operands").Traits(kTerminator).Build());
  ops.push_back(Op("composite")
                    .Operands(V)
                    .Results(V)
                    .Regions(V)  // composite_regions (chlo.scan's body, as JAX exports it)
                    .Attr("name", K::kString)
                    .OptAttr("composite_attributes", K::kDict)
                    .Attr("decomposition", K::kSymbolRef)
                    .OptAttr("version", K::kI32)
                    .Syntax("$name ops regions dict :fn")
                    .Verify(verify::Composite)
                    .Build());
  ops.push_back(Op("custom_call")
                    .Operands(V)
                    .Results(V)
                    .Attr("call_target_name", K::kString)
                    .OptAttr("has_side_effect", K::kBool)
                    .OptAttr("backend_config", K::kAny)
                    .OptAttr("api_version", K::kI32)
                    .OptAttr("called_computations", K::kArray)
                    .OptAttr("operand_layouts", K::kArray)
                    .OptAttr("result_layouts", K::kArray)
                    .OptAttr("output_operand_aliases", K::kArray)
                    .Syntax("@call_target_name ^( ops ) dict :fn")
                    .Verify(verify::CustomCall)
                    .Build());

  // Random numbers.
  ops.push_back(Op("rng").Operands(3).Attr("rng_distribution", K::kEnum, "rng_distribution")
                    .Syntax("ops , distribution = $rng_distribution dict :fn").Verify(verify::Rng).Build());
  ops.push_back(Op("rng_bit_generator").Operands(1).Results(2).Attr("rng_algorithm", K::kEnum, "rng_algorithm")
                    .Syntax("op0 , algorithm = $rng_algorithm dict :fn").Verify(verify::RngBitGenerator).Build());

  // Distribution: collectives, ids, host transfers.
  ops.push_back(Op("replica_id").Operands(0).Syntax("dict :result").Build());
  ops.push_back(Op("partition_id").Operands(0).Syntax("dict :result").Build());
  ops.push_back(Collective("all_gather").Operands(V).Results(V).Attr("all_gather_dim", K::kI64).Build());
  ops.push_back(Collective("all_reduce").Operands(V).Results(V).Regions(1).Build());
  ops.push_back(Collective("reduce_scatter").Operands(V).Results(V).Regions(1).Attr("scatter_dimension", K::kI64).Build());
  ops.push_back(Op("all_to_all")
                    .Operands(V)
                    .Results(V)
                    .Attr("split_dimension", K::kI64)
                    .Attr("concat_dimension", K::kI64)
                    .Attr("split_count", K::kI64)
                    .Attr("replica_groups", K::kAny)
                    .OptAttr("channel_handle", K::kChannelHandle)
                    .Build());
  ops.push_back(Op("collective_permute").Operands(1).Attr("source_target_pairs", K::kI64Elements)
                    .OptAttr("channel_handle", K::kChannelHandle).Build());
  // Data operands, then with has_dynamic_root the i32 roots (one a datum).
  ops.push_back(Op("collective_broadcast").Operands(V).Results(V).Attr("replica_groups", K::kAny)
                    .OptAttr("channel_handle", K::kChannelHandle).OptAttr("has_dynamic_root", K::kUnit).Build());
  ops.push_back(Op("cross-replica-sum").Operands(1).Attr("replica_groups", K::kAny).Build());
  ops.push_back(Op("infeed").Operands(1).Results(V).OptAttr("infeed_config", K::kString)
                    .OptAttr("layout", K::kArray).Traits(kHasSideEffect).Build());
  ops.push_back(Op("outfeed").Operands(V).OptAttr("outfeed_config", K::kString).Traits(kHasSideEffect).Build());
  ops.push_back(Op("send").Operands(V).Attr("channel_handle", K::kChannelHandle)
                    .OptAttr("is_host_transfer", K::kBool).OptAttr("source_target_pairs", K::kI64Elements)
                    .Traits(kHasSideEffect).Build());
  ops.push_back(Op("recv").Operands(1).Results(V).Attr("channel_handle", K::kChannelHandle)
                    .OptAttr("is_host_transfer", K::kBool).OptAttr("source_target_pairs", K::kI64Elements)
                    .Traits(kHasSideEffect).Build());
}

}  // namespace hlograph::ir
