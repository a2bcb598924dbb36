// NumPy .npy arrays: reading and writing the format (versions 1.0, 2.0 and
// 3.0 of the NumPy "npy" format description), and conversion to and from
// the CPU interpreter's tensors.
//
// Only plain (non-structured) dtypes are read: bool, signed and unsigned
// integers, floats, complex, void (how numpy saves ml_dtypes' bfloat16,
// float8 and int4 arrays), bytes and str. Object arrays (pickles) are
// rejected. ToTensor decides which of them a function argument accepts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "backends/cpu/tensor.h"
#include "hlograph/status.h"
#include "ir/type.h"

namespace hlograph::io {

// One array as the file holds it: `descr` is numpy's dtype string ("<f4",
// "|b1", ">i8", "<V2", ...), `data` the raw bytes in the file's byte order
// and layout (column-major when fortran_order).
struct NpyArray {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
};

// A parsed `descr`: byte order '<', '>', '|' or '=', the kind letter (b, i,
// u, f, c, V, S, U) and the size of one element in bytes.
struct NpyDtype {
  char order = '|';
  char kind = 'V';
  int64_t item_size = 0;
};
// Parses a plain dtype string; errors for structured, object and unknown
// dtypes (the message does not name the file).
StatusOr<NpyDtype> ParseDescr(std::string_view descr);
// How messages spell a dtype: "float32", "bool", "int8", "float64
// (big-endian)", "'<V2' (2-byte void)".
std::string DescribeDescr(std::string_view descr);

// A shape as Python spells the tuple: "()", "(3,)", "(3, 4)".
std::string ShapeRepr(const std::vector<int64_t>& shape);

// The number of data bytes an array of `descr` and `shape` has; errors for a
// bad descr, negative dimensions or a size past 2^64.
StatusOr<uint64_t> NpyDataBytes(std::string_view descr, const std::vector<int64_t>& shape);
// Checks that `a` can be written: a plain dtype and data of the right size.
Status CheckNpyArray(const NpyArray& a);

// Parses the contents of a .npy file. `name` (usually the path) starts every
// error message. The data must be exactly shape's element count times the
// element size.
StatusOr<NpyArray> ParseNpy(std::string_view bytes, const std::string& name);
// As ParseNpy, taking ownership of the bytes (no copy of the data).
StatusOr<NpyArray> ParseNpy(std::vector<uint8_t>&& bytes, const std::string& name);

// The .npy header (magic, version, length, dict, padding, '\n') numpy would
// write: version 1.0 unless the dict needs more than 65535 bytes (then 2.0);
// the data that follows starts at a multiple of 64 bytes.
std::string NpyHeader(const NpyArray& a);
// NpyHeader(a) followed by the data.
std::string SerializeNpy(const NpyArray& a);

StatusOr<NpyArray> ReadNpy(const std::string& path);
// Writes completely or not at all: a temporary file in the same directory,
// flushed to disk, then renamed over `path`.
Status WriteNpy(const std::string& path, const NpyArray& a);

// ---------------------------------------------------------------------------
// Conversion to and from interpreter tensors (array_convert.cpp).

// Converts `a` to a tensor of type `expected` (a tensor type). Errors name
// `what` ("argument 2 (arr_2) has dtype float64 but the function expects
// f32"). Accepts:
//  - the matching numpy dtype in either byte order, C or Fortran order:
//    bool for i1, int8..int64, uint8..uint64, float16/32/64, complex64/128;
//  - bf16 from 2-byte void ('<V2', how numpy saves ml_dtypes.bfloat16);
//  - the f8 types from 1-byte void or '<f1' (ml_dtypes' float8 types), f4
//    and f6 types from 1-byte void (the value in the low bits);
//  - i2/i4/ui2/ui4 from 1-byte void (ml_dtypes' int2/int4/uint2/uint4: the
//    value's low bits) and from int8 or uint8 arrays whose values fit;
//  - tf32 from 4-byte void holding hlograph's tf32 bits.
StatusOr<cpu::Tensor> ToTensor(const NpyArray& a, const ir::Type& expected, const std::string& what);

// The array numpy.save would write for the tensor's values, in this
// machine's byte order: "|b1" for i1, "<i4", "<f4", "<c8", ...; the types
// numpy has no dtype for are saved as ml_dtypes saves them: bf16 as "<V2",
// the f8/f6/f4 floats and i2/i4/ui2/ui4 as "<V1" holding the value in the
// low bits (read back with .view(ml_dtypes.bfloat16) etc.). tf32 is "<V4".
// (ml_dtypes saves float8_e5m2 as "<f1", which numpy.load rejects, so "<V1"
// is written for it too.) `t` must be a tensor, not a tuple or token; those
// give an empty "|V1" array.
NpyArray FromTensor(const cpu::Tensor& t);

}  // namespace hlograph::io
