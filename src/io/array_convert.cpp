// NpyArray <-> cpu::Tensor: dtype and shape checks, byte order, Fortran
// order, and the byte layouts ml_dtypes uses for the types numpy lacks
// (bfloat16 and float8 as 2- and 1-byte void; int4/uint4/int2/uint2 and
// float4/float6 as one byte holding the value in its low bits).
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <string>

#include "io/npy.h"

namespace hlograph::io {
namespace {

using E = ir::ElementType;

constexpr bool kHostLittle = std::endian::native == std::endian::little;

// What has to happen to each element after the bytes are copied.
enum class Fixup {
  kNone,
  kBool,             // any nonzero byte is true: store 1
  kSmallIntFromInt,  // int8/uint8 storage for i2/i4/ui2/ui4: range check
  kSmallIntFromVoid, // ml_dtypes int2/int4/uint2/uint4: value in the low bits
  kLowBits,          // f4/f6 (ml_dtypes) and tf32: only the low BitWidth bits may be set
};

// Whether `dtype` can hold values of `e`, and how to finish the copy.
bool Accepts(E e, const NpyDtype& dtype, Fixup* fixup) {
  const char k = dtype.kind;
  const int64_t n = dtype.item_size;
  *fixup = Fixup::kNone;
  switch (e) {
    case E::kI1:
      *fixup = Fixup::kBool;
      return k == 'b' && n == 1;
    case E::kI2:
    case E::kI4:
    case E::kU2:
    case E::kU4:
      if (n != 1) return false;
      if (k == 'i' || k == 'u') {
        *fixup = Fixup::kSmallIntFromInt;
        return true;
      }
      *fixup = Fixup::kSmallIntFromVoid;
      return k == 'V';
    case E::kI8:
    case E::kI16:
    case E::kI32:
    case E::kI64:
    case E::kIndex:
      return k == 'i' && n == ir::StorageBytes(e);
    case E::kU8:
    case E::kU16:
    case E::kU32:
    case E::kU64:
      return k == 'u' && n == ir::StorageBytes(e);
    case E::kF16:
    case E::kF32:
    case E::kF64:
      return k == 'f' && n == ir::StorageBytes(e);
    case E::kC64:
    case E::kC128:
      return k == 'c' && n == ir::StorageBytes(e);
    case E::kBF16:
      return k == 'V' && n == 2;
    case E::kF8E3M4:
    case E::kF8E4M3:
    case E::kF8E4M3FN:
    case E::kF8E4M3FNUZ:
    case E::kF8E4M3B11FNUZ:
    case E::kF8E5M2:
    case E::kF8E5M2FNUZ:
    case E::kF8E8M0FNU:
      // ml_dtypes saves these as '<V1', except float8_e5m2 as '<f1'.
      return (k == 'V' || k == 'f') && n == 1;
    case E::kF4E2M1FN:
    case E::kF6E2M3FN:
    case E::kF6E3M2FN:
      *fixup = Fixup::kLowBits;
      return k == 'V' && n == 1;
    case E::kTF32:
      *fixup = Fixup::kLowBits;
      return k == 'V' && n == 4;
  }
  return false;
}

// How the expected element type is saved from numpy, for error messages.
std::string NumpySpelling(E e) {
  switch (e) {
    case E::kI1: return "bool";
    case E::kI2: return "ml_dtypes.int2, int8 or uint8";
    case E::kI4: return "ml_dtypes.int4, int8 or uint8";
    case E::kU2: return "ml_dtypes.uint2, int8 or uint8";
    case E::kU4: return "ml_dtypes.uint4, int8 or uint8";
    case E::kI8: return "int8";
    case E::kI16: return "int16";
    case E::kI32: return "int32";
    case E::kI64:
    case E::kIndex: return "int64";
    case E::kU8: return "uint8";
    case E::kU16: return "uint16";
    case E::kU32: return "uint32";
    case E::kU64: return "uint64";
    case E::kF16: return "float16";
    case E::kF32: return "float32";
    case E::kF64: return "float64";
    case E::kC64: return "complex64";
    case E::kC128: return "complex128";
    case E::kBF16: return "ml_dtypes.bfloat16, saved as '<V2'";
    case E::kF8E3M4: return "ml_dtypes.float8_e3m4, saved as '<V1'";
    case E::kF8E4M3: return "ml_dtypes.float8_e4m3, saved as '<V1'";
    case E::kF8E4M3FN: return "ml_dtypes.float8_e4m3fn, saved as '<V1'";
    case E::kF8E4M3FNUZ: return "ml_dtypes.float8_e4m3fnuz, saved as '<V1'";
    case E::kF8E4M3B11FNUZ: return "ml_dtypes.float8_e4m3b11fnuz, saved as '<V1'";
    case E::kF8E5M2: return "ml_dtypes.float8_e5m2, saved as '<f1'";
    case E::kF8E5M2FNUZ: return "ml_dtypes.float8_e5m2fnuz, saved as '<V1'";
    case E::kF8E8M0FNU: return "ml_dtypes.float8_e8m0fnu, saved as '<V1'";
    case E::kF4E2M1FN: return "ml_dtypes.float4_e2m1fn, saved as '<V1'";
    case E::kF6E2M3FN: return "ml_dtypes.float6_e2m3fn, saved as '<V1'";
    case E::kF6E3M2FN: return "ml_dtypes.float6_e3m2fn, saved as '<V1'";
    case E::kTF32: return "4-byte void holding tf32 bits";
  }
  return "?";
}

std::string IndexString(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  std::string s = "[";
  for (size_t d = 0; d < index.size(); ++d) s += (d ? ", " : "") + std::to_string(index[d]);
  return s + "]";
}

// Copies a column-major array of `count` elements into row-major order.
// `col_stride` and `index` (rank each) are scratch space.
template <size_t kSize>
void TransposeFixed(const uint8_t* in, uint8_t* out, const int64_t* shape, size_t rank, int64_t count,
                    int64_t* col_stride, int64_t* index) {
  int64_t stride = 1;
  for (size_t d = 0; d < rank; ++d) {
    col_stride[d] = stride;
    stride *= shape[d];
    index[d] = 0;
  }
  int64_t src = 0;
  for (int64_t dst = 0; dst < count; ++dst) {
    std::memcpy(out + static_cast<size_t>(dst) * kSize, in + static_cast<size_t>(src) * kSize, kSize);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d]) {
        src += col_stride[d];
        break;
      }
      src -= (shape[d] - 1) * col_stride[d];
      index[d] = 0;
    }
  }
}

void Transpose(const uint8_t* in, uint8_t* out, const std::vector<int64_t>& shape, int64_t count, size_t size) {
  const size_t rank = shape.size();
  std::vector<int64_t> scratch(2 * rank);
  int64_t* strides = scratch.data();
  int64_t* index = scratch.data() + rank;
  switch (size) {
    case 1: return TransposeFixed<1>(in, out, shape.data(), rank, count, strides, index);
    case 2: return TransposeFixed<2>(in, out, shape.data(), rank, count, strides, index);
    case 4: return TransposeFixed<4>(in, out, shape.data(), rank, count, strides, index);
    case 8: return TransposeFixed<8>(in, out, shape.data(), rank, count, strides, index);
    case 16: return TransposeFixed<16>(in, out, shape.data(), rank, count, strides, index);
    default: break;
  }
}

void SwapBytes(uint8_t* data, size_t total, size_t unit) {
  for (size_t i = 0; i + unit <= total; i += unit) std::reverse(data + i, data + i + unit);
}

}  // namespace

StatusOr<cpu::Tensor> ToTensor(const NpyArray& a, const ir::Type& expected, const std::string& what) {
  if (!expected.IsTensor()) {
    return Status::Error(what + ": the function expects " + expected.ToString() +
                         ", which an array file cannot hold");
  }
  const E e = expected.element();
  auto dtype = ParseDescr(a.descr);
  if (!dtype.ok()) {
    return Status::Error(what + " has dtype '" + a.descr + "' but the function expects " +
                         std::string(ir::ElementTypeName(e)) + " (" + dtype.status().message() + ")");
  }
  Fixup fixup;
  if (!Accepts(e, *dtype, &fixup)) {
    return Status::Error(what + " has dtype " + DescribeDescr(a.descr) + " but the function expects " +
                         std::string(ir::ElementTypeName(e)) + " (numpy: " + NumpySpelling(e) + ")");
  }
  if (a.shape != expected.shape()) {
    return Status::Error(what + " has shape " + ShapeRepr(a.shape) + " but the function expects " +
                         expected.ToString());
  }
  Status check = CheckNpyArray(a);
  if (!check.ok()) return Status::Error(what + ": " + check.message());

  cpu::Tensor t(expected);
  const int64_t count = t.num_elements();
  const size_t size = static_cast<size_t>(dtype->item_size);  // == StorageBytes(e) for every accepted dtype
  uint8_t* out = t.mutable_bytes();
  if (count == 0) return t;
  if (a.fortran_order && expected.rank() > 1) {
    Transpose(a.data.data(), out, a.shape, count, size);
  } else {
    std::memcpy(out, a.data.data(), a.data.size());
  }
  const bool foreign = (dtype->order == '>' && kHostLittle) || (dtype->order == '<' && !kHostLittle);
  if (foreign && size > 1) SwapBytes(out, t.byte_size(), dtype->kind == 'c' ? size / 2 : size);

  const int bits = ir::BitWidth(e);
  auto bad_value = [&](int64_t i, const std::string& why) {
    return Status::Error(what + ": the element at " + IndexString(i, a.shape) + " " + why);
  };
  switch (fixup) {
    case Fixup::kNone: break;
    case Fixup::kBool:
      for (int64_t i = 0; i < count; ++i) out[i] = out[i] != 0;
      break;
    case Fixup::kSmallIntFromInt: {
      const bool is_signed = ir::IsSignedInteger(e);
      const int lo = is_signed ? -(1 << (bits - 1)) : 0;
      const int hi = is_signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
      for (int64_t i = 0; i < count; ++i) {
        const int v = dtype->kind == 'i' ? static_cast<int8_t>(out[i]) : out[i];
        if (v < lo || v > hi) {
          return bad_value(i, "is " + std::to_string(v) + ", outside the range of " +
                                  std::string(ir::ElementTypeName(e)) + " [" + std::to_string(lo) + ", " +
                                  std::to_string(hi) + "]");
        }
        out[i] = static_cast<uint8_t>(v);
      }
      break;
    }
    case Fixup::kSmallIntFromVoid: {
      // ml_dtypes keeps the value's low bits with the rest zero; a
      // sign-extended byte is accepted as well for the signed types.
      const bool is_signed = ir::IsSignedInteger(e);
      const int limit = 1 << bits;
      for (int64_t i = 0; i < count; ++i) {
        const int b = out[i];
        int v;
        if (b < limit) {
          v = is_signed && b >= limit / 2 ? b - limit : b;
        } else if (is_signed && static_cast<int8_t>(out[i]) < 0 && static_cast<int8_t>(out[i]) >= -limit / 2) {
          v = static_cast<int8_t>(out[i]);
        } else {
          char hex[8];
          std::snprintf(hex, sizeof(hex), "0x%02x", b);
          return bad_value(i, std::string("is the byte ") + hex + ", which is not an " +
                                  std::string(ir::ElementTypeName(e)) + " value");
        }
        out[i] = static_cast<uint8_t>(v);
      }
      break;
    }
    case Fixup::kLowBits: {
      for (int64_t i = 0; i < count; ++i) {
        uint32_t v = 0;
        std::memcpy(&v, out + static_cast<size_t>(i) * size, size);  // size is 1 or 4
        if (size == 1) v &= 0xff;
        if (v >> bits) {
          char hex[16];
          std::snprintf(hex, sizeof(hex), "0x%0*x", static_cast<int>(size * 2), v);
          return bad_value(i, std::string("is ") + hex + ", which has bits set above the " + std::to_string(bits) +
                                  " bits of " + std::string(ir::ElementTypeName(e)));
        }
      }
      break;
    }
  }
  return t;
}

NpyArray FromTensor(const cpu::Tensor& t) {
  NpyArray a;
  if (!t.type().IsTensor()) {
    a.descr = "|V1";
    a.shape = {0};
    return a;
  }
  const std::string o = kHostLittle ? "<" : ">";
  const E e = t.element();
  switch (e) {
    case E::kI1: a.descr = "|b1"; break;
    case E::kI8: a.descr = "|i1"; break;
    case E::kU8: a.descr = "|u1"; break;
    case E::kI16: a.descr = o + "i2"; break;
    case E::kI32: a.descr = o + "i4"; break;
    case E::kI64:
    case E::kIndex: a.descr = o + "i8"; break;
    case E::kU16: a.descr = o + "u2"; break;
    case E::kU32: a.descr = o + "u4"; break;
    case E::kU64: a.descr = o + "u8"; break;
    case E::kF16: a.descr = o + "f2"; break;
    case E::kF32: a.descr = o + "f4"; break;
    case E::kF64: a.descr = o + "f8"; break;
    case E::kC64: a.descr = o + "c8"; break;
    case E::kC128: a.descr = o + "c16"; break;
    case E::kBF16: a.descr = o + "V2"; break;
    case E::kTF32: a.descr = o + "V4"; break;
    case E::kI2:
    case E::kI4:
    case E::kU2:
    case E::kU4:
    case E::kF4E2M1FN:
    case E::kF6E2M3FN:
    case E::kF6E3M2FN:
    case E::kF8E3M4:
    case E::kF8E4M3:
    case E::kF8E4M3FN:
    case E::kF8E4M3FNUZ:
    case E::kF8E4M3B11FNUZ:
    case E::kF8E5M2:
    case E::kF8E5M2FNUZ:
    case E::kF8E8M0FNU: a.descr = o + "V1"; break;
  }
  a.shape = t.shape();
  a.data.assign(t.bytes(), t.bytes() + t.byte_size());
  if (e == E::kI2 || e == E::kI4 || e == E::kU2 || e == E::kU4) {
    // ml_dtypes' layout: the value's low bits, the rest zero.
    const uint8_t mask = static_cast<uint8_t>((1u << ir::BitWidth(e)) - 1);
    for (uint8_t& b : a.data) b &= mask;
  }
  return a;
}

}  // namespace hlograph::io
