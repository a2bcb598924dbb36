#include "frontend/bytecode/vhlo_ops.h"

#include <algorithm>
#include <map>
#include <string>

#include "ir/elementwise_ops.h"

namespace hlograph::frontend::bytecode {
namespace {

using Names = std::vector<std::string>;

// Attributes of the convolution family (convolution_v1, dynamic_conv_v*).
Names ConvolutionAttributes(bool with_padding) {
  Names names = {"window_strides", "lhs_dilation", "rhs_dilation", "window_reversal",
                 "input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
                 "kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions",
                 "output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions",
                 "feature_group_count", "batch_group_count", "precision_config"};
  if (with_padding) names.push_back("padding");
  return names;
}

std::map<std::string, Names, std::less<>> BuildTable() {
  std::map<std::string, Names, std::less<>> t;
  t["all_gather_v1"] = t["all_gather_v2"] = {"all_gather_dim", "replica_groups", "channel_id", "use_global_device_ids"};
  t["all_reduce_v1"] = t["all_reduce_v2"] = {"replica_groups", "channel_id", "use_global_device_ids"};
  t["all_to_all_v1"] = t["all_to_all_v2"] = {"split_dimension", "concat_dimension", "split_count", "replica_groups",
                                             "channel_id"};
  t["batch_norm_grad_v1"] = t["batch_norm_inference_v1"] = t["batch_norm_training_v1"] = {"epsilon",
                                                                                          "feature_index"};
  t["broadcast_in_dim_v1"] = {"broadcast_dimensions"};
  t["broadcast_v1"] = {"broadcast_sizes"};
  t["call_v1"] = {"callee"};
  t["cholesky_v1"] = {"lower"};
  t["collective_broadcast_v1"] = {"replica_groups", "channel_id"};
  t["collective_permute_v1"] = {"source_target_pairs", "channel_id"};
  t["compare_v1"] = {"comparison_direction", "compare_type"};
  t["composite_v1"] = t["composite_v2"] = {"name", "composite_attributes", "decomposition", "version"};
  t["concatenate_v1"] = {"dimension"};
  t["constant_v1"] = {"value"};
  t["convolution_v1"] = ConvolutionAttributes(true);
  t["dynamic_conv_v1"] = ConvolutionAttributes(true);
  t["dynamic_conv_v2"] = ConvolutionAttributes(false);
  t["cross-replica-sum_v1"] = {"replica_groups"};
  t["custom_call_v1"] = {"call_target_name", "has_side_effect", "backend_config", "api_version",
                         "called_computations", "operand_layouts", "result_layouts", "output_operand_aliases"};
  t["custom_call_v2"] = t["custom_call_v1"];
  t["custom_call_v2"].push_back("result_tilings");
  t["dot_general_v1"] = {"lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
                         "rhs_contracting_dimensions", "precision_config"};
  t["dot_general_v2"] = {"lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
                         "rhs_contracting_dimensions", "precision_config", "lhs_precision_type",
                         "rhs_precision_type", "accumulation_type", "lhs_component_count", "rhs_component_count",
                         "num_primitive_operations", "allow_imprecise_accumulation"};
  t["dot_v1"] = {"precision_config"};
  t["dynamic_broadcast_in_dim_v1"] = {"broadcast_dimensions", "known_expanding_dimensions",
                                      "known_nonexpanding_dimensions"};
  t["dynamic_gather_v1"] = {"offset_dims", "collapsed_slice_dims", "start_index_map", "index_vector_dim",
                            "indices_are_sorted"};
  t["dynamic_gather_v2"] = {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                            "start_indices_batching_dims", "start_index_map", "index_vector_dim",
                            "indices_are_sorted"};
  t["dynamic_iota_v1"] = t["iota_v1"] = {"iota_dimension"};
  t["dynamic_slice_v1"] = {"slice_sizes"};
  t["einsum_v1"] = t["unary_einsum_v1"] = {"einsum_config"};
  t["fft_v1"] = {"fft_type", "fft_length"};
  t["func_v1"] = {"sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"};
  t["gather_v1"] = {"offset_dims", "collapsed_slice_dims", "start_index_map", "index_vector_dim", "slice_sizes",
                    "indices_are_sorted"};
  t["gather_v2"] = {"offset_dims", "collapsed_slice_dims", "operand_batching_dims", "start_indices_batching_dims",
                    "start_index_map", "index_vector_dim", "slice_sizes", "indices_are_sorted"};
  t["get_dimension_size_v1"] = t["set_dimension_size_v1"] = {"dimension"};
  t["get_tuple_element_v1"] = {"index"};
  t["infeed_v1"] = {"infeed_config", "layout"};
  t["map_v1"] = {"dimensions"};
  t["outfeed_v1"] = {"outfeed_config"};
  t["pad_v1"] = {"edge_padding_low", "edge_padding_high", "interior_padding"};
  t["recv_v1"] = t["send_v1"] = {"channel_id", "channel_type", "is_host_transfer"};
  t["recv_v2"] = t["send_v2"] = {"channel_id", "channel_type", "is_host_transfer", "source_target_pairs"};
  t["reduce_v1"] = {"dimensions"};
  t["reduce_precision_v1"] = {"exponent_bits", "mantissa_bits"};
  t["reduce_scatter_v1"] = {"scatter_dimension", "replica_groups", "channel_id", "use_global_device_ids"};
  t["reduce_window_v1"] = {"window_dimensions", "window_strides", "base_dilations", "window_dilations", "padding"};
  t["reverse_v1"] = {"dimensions"};
  t["rng_bit_generator_v1"] = {"rng_algorithm"};
  t["rng_v1"] = {"rng_distribution"};
  t["scatter_v1"] = {"update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
                     "index_vector_dim", "indices_are_sorted", "unique_indices"};
  t["scatter_v2"] = {"update_window_dims", "inserted_window_dims", "input_batching_dims",
                     "scatter_indices_batching_dims", "scatter_dims_to_operand_dims", "index_vector_dim",
                     "indices_are_sorted", "unique_indices"};
  t["select_and_scatter_v1"] = {"window_dimensions", "window_strides", "padding"};
  t["slice_v1"] = {"start_indices", "limit_indices", "strides"};
  t["sort_v1"] = {"dimension", "is_stable"};
  t["torch_index_select_v1"] = {"dim", "batch_dims"};
  t["transpose_v1"] = {"permutation"};
  t["triangular_solve_v1"] = {"left_side", "lower", "unit_diagonal", "transpose_a"};
  // The elementwise ops, from their declarations: every version up to the
  // newest; v2 added the result accuracy of transcendental functions.
  for (const ir::ElementwiseOp& op : ir::ElementwiseOps()) {
    const std::string short_name(op.name.substr(op.name.find('.') + 1));
    for (int version = 1; version <= op.vhlo_version; ++version) {
      t[short_name + "_v" + std::to_string(version)] =
          version >= 2 ? std::vector<std::string>{"result_accuracy"} : std::vector<std::string>{};
    }
  }
  // Ops that take no attributes, every version of them hlograph knows.
  for (const char* op : {"after_all_v1", "case_v1", "clamp_v1", "create_token_v1", "dynamic_pad_v1", "dynamic_reshape_v1",
                         "dynamic_update_slice_v1", "if_v1", "optimization_barrier_v1", "partition_id_v1",
                         "real_dynamic_slice_v1", "replica_id_v1", "reshape_v1", "return_v1", "select_v1",
                         "tuple_v1", "while_v1"}) {
    t[op] = {};
  }
  for (auto& [name, names] : t) std::sort(names.begin(), names.end());
  return t;
}

}  // namespace

const std::vector<std::string>* VhloOpAttributeNames(std::string_view vhlo_op) {
  static const auto table = BuildTable();
  if (!vhlo_op.starts_with("vhlo.")) return nullptr;
  auto it = table.find(vhlo_op.substr(5));
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace hlograph::frontend::bytecode
