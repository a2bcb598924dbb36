"""Benchmark workloads, written in JAX. Each workload is a function returning
(fn, args): fn is a plain JAX function, args a pytree of arrays built from a
fixed numpy seed (the same values on every machine and platform).

The first five (mlp_chain, fori_tanh, scan_layers, gpt_decode, big_gemm) mirror
the shared reference workloads (peer_workloads.py beside H200_BASELINE.md):
same definitions, shapes and seeds, so numbers compare with the peer baseline.
The others are added for the project's own coverage: bfloat16 variants, a GPT
prompt prefill, a small convnet, a data-dependent while loop and a switch
inside a loop.
"""
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax


def _rng(seed):
    return np.random.default_rng(seed)


# ---------------------------------------------------------------------------
# The five reference workloads (copied from peer_workloads.py, unchanged).

def mlp_chain(layers=24, batch=8, d=512, seed=0):
    r = _rng(seed)
    ws = [jnp.asarray(r.standard_normal((d, d), dtype=np.float32) / np.sqrt(d)) for _ in range(layers)]
    bs = [jnp.asarray(r.standard_normal((d,), dtype=np.float32) * 0.1) for _ in range(layers)]
    x = jnp.asarray(r.standard_normal((batch, d), dtype=np.float32))
    def f(x, ws, bs):
        for w, b in zip(ws, bs):
            x = jax.nn.relu(x @ w + b)
        return x
    return f, (x, ws, bs)


def fori_tanh(iters=200, batch=8, d=256, seed=1):
    r = _rng(seed)
    w = jnp.asarray(r.standard_normal((d, d), dtype=np.float32) / np.sqrt(d))
    b = jnp.asarray(r.standard_normal((d,), dtype=np.float32) * 0.1)
    x = jnp.asarray(r.standard_normal((batch, d), dtype=np.float32))
    def f(x, w, b):
        return lax.fori_loop(0, iters, lambda i, x: jnp.tanh(x @ w + b), x)
    return f, (x, w, b)


def scan_layers(layers=32, batch=8, d=512, seed=2):
    r = _rng(seed)
    W = jnp.asarray(r.standard_normal((layers, d, d), dtype=np.float32) / np.sqrt(d))
    B = jnp.asarray(r.standard_normal((layers, d), dtype=np.float32) * 0.1)
    x = jnp.asarray(r.standard_normal((batch, d), dtype=np.float32))
    def f(x, W, B):
        def body(x, wb):
            w, b = wb
            return jax.nn.gelu(x @ w + b), None
        x, _ = lax.scan(body, x, (W, B))
        return x
    return f, (x, W, B)


def _ln(x, g):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) * lax.rsqrt(v + 1e-5) * g


def gpt_decode(layers=12, d=768, heads=12, ctx=1024, vocab=8192, seed=3):
    """One decode step of a small GPT with a KV cache, batch 1."""
    r = _rng(seed)
    hd = d // heads
    def n(*s, scale=0.02):
        return jnp.asarray(r.standard_normal(s, dtype=np.float32) * scale)
    params = dict(
        wqkv=n(layers, d, 3 * d), wo=n(layers, d, d),
        w1=n(layers, d, 4 * d), w2=n(layers, 4 * d, d),
        g1=jnp.ones((layers, d)), g2=jnp.ones((layers, d)),
        emb=n(vocab, d), wout=n(d, vocab))
    kc = n(layers, ctx, heads, hd, scale=1.0)
    vc = n(layers, ctx, heads, hd, scale=1.0)
    tok = jnp.asarray(7, dtype=jnp.int32)
    pos = jnp.asarray(ctx // 2, dtype=jnp.int32)
    def ln(x, g):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) * lax.rsqrt(v + 1e-5) * g
    def f(params, kc, vc, tok, pos):
        x = params['emb'][tok]
        mask = jnp.arange(ctx) <= pos
        def layer(x, p):
            wqkv, wo, w1, w2, g1, g2, k, v = p
            h = ln(x, g1)
            q, kn, vn = jnp.split(h @ wqkv, 3)
            q = q.reshape(heads, hd)
            k = lax.dynamic_update_slice(k, kn.reshape(1, heads, hd), (pos, 0, 0))
            v = lax.dynamic_update_slice(v, vn.reshape(1, heads, hd), (pos, 0, 0))
            s = jnp.einsum('hd,thd->ht', q, k) / np.sqrt(hd)
            s = jnp.where(mask[None, :], s, -1e30)
            a = jax.nn.softmax(s, axis=-1)
            o = jnp.einsum('ht,thd->hd', a, v).reshape(d)
            x = x + o @ wo
            h = ln(x, g2)
            x = x + jax.nn.gelu(h @ w1) @ w2
            return x, (k, v)
        x, (k2, v2) = lax.scan(layer, x, (params['wqkv'], params['wo'], params['w1'], params['w2'],
                                          params['g1'], params['g2'], kc, vc))
        logits = x @ params['wout']
        return logits, k2, v2
    return f, (params, kc, vc, tok, pos)


def big_gemm(n=4096, seed=4):
    r = _rng(seed)
    a = jnp.asarray(r.standard_normal((n, n), dtype=np.float32))
    b = jnp.asarray(r.standard_normal((n, n), dtype=np.float32))
    def f(a, b):
        return jnp.tanh(a @ b) @ b
    return f, (a, b)


# ---------------------------------------------------------------------------
# Added workloads.

BF16 = jnp.bfloat16
F32 = jnp.float32


def _mm32(a, b):
    """bf16 x bf16 matmul accumulated and returned in float32."""
    return jnp.matmul(a, b, preferred_element_type=F32)


def mlp_chain_bf16(layers=24, batch=8, d=512, seed=0):
    """mlp_chain with x, weights and biases in bfloat16 (the same values as
    mlp_chain, rounded). Each matmul is bf16 x bf16 -> f32
    (preferred_element_type=float32); bias add and relu in f32; the
    activation is rounded back to bf16 between layers. Returns bf16."""
    f32_fn, (x, ws, bs) = mlp_chain(layers, batch, d, seed)
    x = x.astype(BF16)
    ws = [w.astype(BF16) for w in ws]
    bs = [b.astype(BF16) for b in bs]
    def f(x, ws, bs):
        for w, b in zip(ws, bs):
            x = jax.nn.relu(_mm32(x, w) + b.astype(F32)).astype(BF16)
        return x
    return f, (x, ws, bs)


def gpt_decode_bf16(layers=12, d=768, heads=12, ctx=1024, vocab=8192, seed=3):
    """gpt_decode with every parameter and the KV caches in bfloat16 (the
    same values as gpt_decode, rounded). The residual stream, layer norms,
    softmax and logits are float32; matmul operands are cast to bf16 and
    accumulate in f32 (preferred_element_type=float32). The new K/V rows
    are rounded to bf16 and written into the bf16 caches. Returns
    (logits f32[vocab], k bf16, v bf16)."""
    _, (params, kc, vc, tok, pos) = gpt_decode(layers, d, heads, ctx, vocab, seed)
    params = {k: v.astype(BF16) for k, v in params.items()}
    kc = kc.astype(BF16)
    vc = vc.astype(BF16)
    hd = d // heads
    def f(params, kc, vc, tok, pos):
        x = params['emb'][tok].astype(F32)
        mask = jnp.arange(ctx) <= pos
        def layer(x, p):
            wqkv, wo, w1, w2, g1, g2, k, v = p
            h = _ln(x, g1.astype(F32)).astype(BF16)
            q, kn, vn = jnp.split(_mm32(h, wqkv), 3)
            q = q.astype(BF16).reshape(heads, hd)
            k = lax.dynamic_update_slice(k, kn.astype(BF16).reshape(1, heads, hd), (pos, 0, 0))
            v = lax.dynamic_update_slice(v, vn.astype(BF16).reshape(1, heads, hd), (pos, 0, 0))
            s = jnp.einsum('hd,thd->ht', q, k, preferred_element_type=F32) / np.sqrt(hd)
            s = jnp.where(mask[None, :], s, -1e30)
            a = jax.nn.softmax(s, axis=-1).astype(BF16)
            o = jnp.einsum('ht,thd->hd', a, v, preferred_element_type=F32).reshape(d)
            x = x + _mm32(o.astype(BF16), wo)
            h = _ln(x, g2.astype(F32)).astype(BF16)
            x = x + _mm32(jax.nn.gelu(_mm32(h, w1)).astype(BF16), w2)
            return x, (k, v)
        x, (k2, v2) = lax.scan(layer, x, (params['wqkv'], params['wo'], params['w1'], params['w2'],
                                          params['g1'], params['g2'], kc, vc))
        logits = _mm32(x.astype(BF16), params['wout'])
        return logits, k2, v2
    return f, (params, kc, vc, tok, pos)


def gpt_prefill(layers=12, d=768, heads=12, ctx=1024, vocab=8192, prompt=128, seed=3):
    """The gpt_decode model (same parameters, float32) processing a prompt of
    `prompt` tokens at positions 0..prompt-1: causal self-attention over the
    prompt, K/V of every prompt position written into the caches with
    dynamic_update_slice at the (dynamic) start position `pos0` = 0. Returns
    (last-position logits f32[vocab], k cache, v cache)."""
    _, (params, kc, vc, _tok, _pos) = gpt_decode(layers, d, heads, ctx, vocab, seed)
    hd = d // heads
    toks = jnp.asarray(_rng(seed + 100).integers(0, vocab, size=(prompt,), dtype=np.int32))
    pos0 = jnp.asarray(0, dtype=jnp.int32)
    causal = np.tril(np.ones((prompt, prompt), dtype=bool))
    def f(params, kc, vc, toks, pos0):
        x = params['emb'][toks]                                  # [T, d]
        def layer(x, p):
            wqkv, wo, w1, w2, g1, g2, k, v = p
            h = _ln(x, g1)
            q, kn, vn = jnp.split(h @ wqkv, 3, axis=-1)          # [T, d] each
            q = q.reshape(prompt, heads, hd)
            kn = kn.reshape(prompt, heads, hd)
            vn = vn.reshape(prompt, heads, hd)
            k = lax.dynamic_update_slice(k, kn, (pos0, 0, 0))
            v = lax.dynamic_update_slice(v, vn, (pos0, 0, 0))
            s = jnp.einsum('qhd,khd->hqk', q, kn) / np.sqrt(hd)  # [H, T, T]
            s = jnp.where(causal[None], s, -1e30)
            a = jax.nn.softmax(s, axis=-1)
            o = jnp.einsum('hqk,khd->qhd', a, vn).reshape(prompt, d)
            x = x + o @ wo
            h = _ln(x, g2)
            x = x + jax.nn.gelu(h @ w1) @ w2
            return x, (k, v)
        x, (k2, v2) = lax.scan(layer, x, (params['wqkv'], params['wo'], params['w1'], params['w2'],
                                          params['g1'], params['g2'], kc, vc))
        logits = x[-1] @ params['wout']
        return logits, k2, v2
    return f, (params, kc, vc, toks, pos0)


def small_convnet(batch=8, hw=32, cin=3, classes=10, seed=5):
    """Three 3x3 SAME convolutions (NHWC / HWIO) 3->16->32->64 with bias and
    relu, 2x2 max pooling after the first two, global average pooling and a
    dense head to 10 logits. Input 8x32x32x3."""
    r = _rng(seed)
    chans = [cin, 16, 32, 64]
    ws, bs = [], []
    for ci, co in zip(chans[:-1], chans[1:]):
        ws.append(jnp.asarray(r.standard_normal((3, 3, ci, co), dtype=np.float32) / np.sqrt(9 * ci)))
        bs.append(jnp.asarray(r.standard_normal((co,), dtype=np.float32) * 0.1))
    wd = jnp.asarray(r.standard_normal((chans[-1], classes), dtype=np.float32) / np.sqrt(chans[-1]))
    bd = jnp.asarray(r.standard_normal((classes,), dtype=np.float32) * 0.1)
    x = jnp.asarray(r.standard_normal((batch, hw, hw, cin), dtype=np.float32))
    def pool(x):
        return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), 'VALID')
    def f(x, ws, bs, wd, bd):
        for i, (w, b) in enumerate(zip(ws, bs)):
            x = lax.conv_general_dilated(x, w, (1, 1), 'SAME',
                                         dimension_numbers=('NHWC', 'HWIO', 'NHWC'))
            x = jax.nn.relu(x + b)
            if i < 2:
                x = pool(x)
        x = x.mean(axis=(1, 2))
        return x @ wd + bd
    return f, (x, ws, bs, wd, bd)


def while_data_dependent(batch=8, d=256, max_iters=200, tol=1e-3, seed=6):
    """A fixed-point iteration x <- tanh(x @ W + b) in a lax.while_loop that
    stops when max|x_new - x| < tol or after max_iters steps: the trip
    count depends on the data (27 steps for this seed in f32; TF32 matmuls
    may change it by a step). tanh keeps the map
    contracting for these weights. Returns (x, steps int32)."""
    r = _rng(seed)
    w = jnp.asarray(r.standard_normal((d, d), dtype=np.float32) * (1.0 / np.sqrt(d)))
    b = jnp.asarray(r.standard_normal((d,), dtype=np.float32) * 0.5)
    x = jnp.asarray(r.standard_normal((batch, d), dtype=np.float32))
    def f(x, w, b):
        def cond(c):
            k, _, err = c
            return (k < max_iters) & (err >= tol)
        def body(c):
            k, x, _ = c
            xn = jnp.tanh(x @ w + b)
            return k + 1, xn, jnp.max(jnp.abs(xn - x))
        k, x, _ = lax.while_loop(cond, body, (jnp.int32(0), x, jnp.float32(jnp.inf)))
        return x, k
    return f, (x, w, b)


def switch_in_loop(steps=64, batch=8, d=256, seed=7):
    """lax.fori_loop over 64 steps whose body does lax.switch on i % 3 among
    three branches: tanh(x@W0 + b0), x + 0.5*relu(x@W1) rescaled, and
    x * sigmoid(x@W2)."""
    r = _rng(seed)
    def m():
        return jnp.asarray(r.standard_normal((d, d), dtype=np.float32) / np.sqrt(d))
    w0, w1, w2 = m(), m(), m()
    b0 = jnp.asarray(r.standard_normal((d,), dtype=np.float32) * 0.1)
    x = jnp.asarray(r.standard_normal((batch, d), dtype=np.float32))
    def f(x, w0, b0, w1, w2):
        branches = [
            lambda x: jnp.tanh(x @ w0 + b0),
            lambda x: (x + 0.5 * jax.nn.relu(x @ w1)) * 0.8,
            lambda x: x * jax.nn.sigmoid(x @ w2),
        ]
        return lax.fori_loop(0, steps, lambda i, x: lax.switch(i % 3, branches, x), x)
    return f, (x, w0, b0, w1, w2)


def elementwise_large(n=1 << 26, seed=8):
    """One fused elementwise kernel over 64M float32 (256 MB in, 256 MB out):
    the bandwidth test. y = x * sigmoid(1.702 x) + 0.1 x (a gelu-like mix)."""
    r = _rng(seed)
    x = jnp.asarray(r.standard_normal(n, dtype=np.float32))
    def f(x):
        return x * jax.nn.sigmoid(1.702 * x) + 0.1 * x
    return f, (x,)


def row_reduce_large(rows=16384, cols=8192, seed=9):
    """Row sums of a 16384x8192 float32 matrix (512 MB read): the reduction
    bandwidth test."""
    r = _rng(seed)
    x = jnp.asarray(r.standard_normal((rows, cols), dtype=np.float32))
    def f(x):
        return jnp.sum(x, axis=1)
    return f, (x,)


REFERENCE = dict(mlp_chain=mlp_chain, fori_tanh=fori_tanh, scan_layers=scan_layers,
                 gpt_decode=gpt_decode, big_gemm=big_gemm)
ALL = dict(REFERENCE,
           mlp_chain_bf16=mlp_chain_bf16, gpt_decode_bf16=gpt_decode_bf16,
           gpt_prefill=gpt_prefill, small_convnet=small_convnet,
           while_data_dependent=while_data_dependent, switch_in_loop=switch_in_loop,
           elementwise_large=elementwise_large, row_reduce_large=row_reduce_large)


def flat(name):
    """(g, leaves, treedef): g takes the pytree leaves of the workload's args
    in jax.tree_util.tree_flatten order (what the exported @main takes)."""
    fn, args = ALL[name]()
    leaves, treedef = jax.tree_util.tree_flatten(args)
    def g(*leaves):
        return fn(*jax.tree_util.tree_unflatten(treedef, leaves))
    g.__name__ = name  # the exported module is then @jit_<name>
    return g, leaves, treedef
