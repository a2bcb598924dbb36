// Sums of outer products computed as products. Per-example gradients
// (jax.vmap of jax.grad over a batch) make each dense layer's gradient an
// outer product per example, O[b, i, j] = a[b, i] g[b, j] (a dot_general
// with batch dims and no real contraction), then sum it two ways:
//
//  - over the batch, weighted (DP-SGD's clipped mean): the sum over b of
//    s[b] O[b, i, j] is one product contracting the batch,
//    sum_b (s[b] a[b, i]) g[b, j]: a GEMM, where the outer products would
//    be B * I * J multiply-adds on the CUDA cores;
//  - of squares, over everything but the batch (each example's gradient
//    norm): the sum over i, j of (a[b, i] g[b, j])^2 is
//    (sum_i a[b, i]^2) (sum_j g[b, j]^2), two reductions of the factors.
//
// The first holds for any dot_general with batch dims (its contraction
// joins the batch's); the second for one whose contraction has one element.
// Transposes may sit between the product and the sum, and for the second a
// reshape that keeps the batch dims leading (flattening each example's
// gradient). Only f32 and f64 (in 16-bit types the reordered rounding would
// show); the sums are reordered, so, like reuse_finer_reductions.h, only
// backends that reorder sums anyway run it (the GPU's), not the oracle.
#pragma once

#include "ir/module.h"

namespace hlograph::passes {

// Rewrites `module` in place; returns how many reductions it rewrote. The
// outer products no longer read are removed.
int SumOuterProductsAsProducts(ir::Module& module);

}  // namespace hlograph::passes
