// Source of features.current.mlirbc (make_test_data.py): VHLO encodings the corpus
// lacks: a dot algorithm, a typed-FFI custom call, a non-default result accuracy.
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false> : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.custom_call @foo(%0) {api_version = 4 : i32, backend_config = {x = 1 : i32}, has_side_effect = true} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %2 = stablehlo.exponential %1 {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, rtol = 0.000000e+00, ulps = 1, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
