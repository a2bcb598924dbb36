// The arithmetic of quantized tensors as StableHLO ops, step for step as the
// CPU interpreter computes it (backends/cpu/quantized.cpp), so that a
// lowered program gives the interpreter's bits: each step of dequantize and
// quantize in the expressed type, rounded where the interpreter rounds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/operation.h"
#include "passes/op_builder.h"

namespace hlograph::passes::quantized {

// `v` rounded to the float type `e` (to nearest even), as the interpreter
// rounds the scales, zero points and range bounds it computes with.
double RoundTo(double v, ir::ElementType e);

// Why dequantizing a tensor with parameters `p` cannot be reproduced
// exactly by ops, or "" when it can.
std::string DequantizeRefusal(const ir::QuantParams& p);
// The same for quantizing values of float type `from` into `p`.
std::string QuantizeRefusal(ir::ElementType from, const ir::QuantParams& p);

// A constant of `type` whose elements along dimension `axis` are
// `elements` (the bytes of one element each); a splat when `axis` is -1 or
// every element is the same.
ir::Value* AlongAxis(OpBuilder& b, const ir::Type& type, int64_t axis,
                     const std::vector<std::vector<uint8_t>>& elements);
// The dimension along which `t`'s parameters vary, or -1.
int64_t QuantAxis(const ir::Type& t);

// q - zero_point as integers of type `wide` (i32 or i64); `q` holds the
// storage integers of `quantized`.
ir::Value* Centered(OpBuilder& b, ir::Value* q, const ir::Type& quantized, ir::ElementType wide);
// (q - zero_point) * scale in the expressed type.
ir::Value* Dequantize(OpBuilder& b, ir::Value* q, const ir::Type& quantized);
// round_nearest_even(clamp(x / scale + zero_point)) as the storage
// integers of `quantized`; `x` holds floats.
ir::Value* Quantize(OpBuilder& b, ir::Value* x, const ir::Type& quantized);
// Floats already divided by the scale and shifted by the zero point (in
// the expressed type or f64) to storage integers: NaN to 0, clamped to the
// storage range as rounded to the expressed type, rounded to nearest even.
ir::Value* ToStorage(OpBuilder& b, ir::Value* x, const ir::QuantParams& p);

// The integer type that holds q - zero_point for any q of `storage`.
ir::ElementType WideFor(ir::ElementType storage);
// The largest |q - zero_point| over the storage range and zero points.
int64_t MaxCentered(const ir::QuantParams& p);
// The largest |q| over the storage range.
int64_t MaxStored(const ir::QuantParams& p);

}  // namespace hlograph::passes::quantized
