// Shared by the SPMD partitioner's tests: a program partitioned for N
// devices, run on the CPU interpreter's device grid (each device its own
// pieces) and compared with the unpartitioned program on the whole arrays.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "backends/cpu/device_grid.h"
#include "backends/cpu/interpreter.h"
#include "backends/cpu/random_tensor.h"
#include "frontend/parser.h"
#include "ir/hlo_sharding.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/spmd/device_sharding.h"
#include "passes/spmd/partition.h"

namespace hlograph::passes {

inline std::unique_ptr<ir::Module> Parse(const std::string& text) {
  auto module = frontend::ParseModule(text, "test.mlir");
  EXPECT_TRUE(module.ok()) << module.status().message();
  if (!module.ok()) return nullptr;
  auto verified = ir::VerifyModule(**module);
  EXPECT_TRUE(verified.ok()) << verified.message();
  return std::move(*module);
}

inline spmd::DeviceSharding Sharding(const std::string& hlo, size_t rank, int64_t devices) {
  auto parsed = ir::ParseHloSharding(hlo);
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  auto s = spmd::FromHlo(*parsed, rank, devices);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

// Device d's piece of `global` (f32) under `s`.
inline cpu::Tensor Piece(const cpu::Tensor& global, const spmd::DeviceSharding& s, size_t d) {
  std::vector<int64_t> local = global.shape();
  for (size_t k = 0; k < local.size(); ++k) local[k] /= s.counts[k];
  cpu::Tensor piece(global.type().WithShape(local));
  const size_t bytes = static_cast<size_t>(ir::StorageBytes(global.element()));
  std::vector<int64_t> index(local.size(), 0);
  for (int64_t i = 0; i < piece.num_elements(); ++i) {
    int64_t from = 0;
    for (size_t k = 0; k < local.size(); ++k) from = from * global.shape()[k] + s.tiles[d][k] * local[k] + index[k];
    std::memcpy(piece.mutable_bytes() + static_cast<size_t>(i) * bytes,
                global.bytes() + static_cast<size_t>(from) * bytes, bytes);
    for (size_t k = local.size(); k-- > 0;) {
      if (++index[k] < local[k]) break;
      index[k] = 0;
    }
  }
  return piece;
}

inline void ExpectNear(const cpu::Tensor& got, const cpu::Tensor& want, const std::string& what) {
  ASSERT_EQ(got.type().ToString(), want.type().ToString()) << what;
  const auto* g = got.data<float>();
  const auto* w = want.data<float>();
  const int64_t floats = got.num_elements() * (ir::IsComplex(got.element()) ? 2 : 1);  // f32 or complex<f32>
  for (int64_t i = 0; i < floats; ++i) {
    ASSERT_NEAR(g[i], w[i], 1e-4 * (1 + std::fabs(w[i]))) << what << " element " << i;
  }
}

// Partitions `text` for `devices`, runs it on random arguments on that many
// devices and compares every device's results with the pieces of the
// unpartitioned program's; returns the partitioner's summary.
inline std::string PartitionAndCompare(const std::string& text, int64_t devices) {
  auto module = Parse(text);
  if (!module) return "";
  auto program = PartitionSpmd(*module, devices);
  EXPECT_TRUE(program.ok()) << program.status().message();
  if (!program.ok()) return "";
  const ir::FunctionType global = ir::FunctionSignature(*module->EntryFunction());
  auto args = cpu::RandomTensors(global.inputs, 7);
  EXPECT_TRUE(args.ok());
  cpu::Interpreter whole(*module);
  auto expected = whole.RunEntry(*args);
  EXPECT_TRUE(expected.ok()) << expected.status().message();
  if (!expected.ok()) return "";
  std::vector<std::vector<cpu::Tensor>> pieces(static_cast<size_t>(devices));
  for (size_t i = 0; i < args->size(); ++i) {
    const auto s = Sharding(program->input_shardings[i], global.inputs[i].shape().size(), devices);
    for (size_t d = 0; d < pieces.size(); ++d) pieces[d].push_back(Piece((*args)[i], s, d));
  }
  const ir::Operation* entry = program->module->EntryFunction();
  auto results = cpu::RunOnGrid(*program->module, 1, devices,
                                std::vector<const ir::Operation*>(static_cast<size_t>(devices), entry), pieces);
  EXPECT_TRUE(results.ok()) << results.status().message() << "\n" << ir::PrintModule(*program->module);
  if (!results.ok()) return "";
  for (size_t r = 0; r < expected->size(); ++r) {
    const auto s = Sharding(program->result_shardings[r], global.results[r].shape().size(), devices);
    for (size_t d = 0; d < pieces.size(); ++d) {
      ExpectNear((*results)[d][r], Piece((*expected)[r], s, d),
                 "result " + std::to_string(r) + " on device " + std::to_string(d));
    }
  }
  return program->summary;
}

inline std::string Mesh1(int n) { return "sdy.mesh @mesh = <[\"x\"=" + std::to_string(n) + "]>\n"; }

}  // namespace hlograph::passes
