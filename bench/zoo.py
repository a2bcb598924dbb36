"""A zoo of JAX programs of the kinds JAX users write: training steps (MLP,
transformer, convnet, each with a hand-written optimizer), convolution
inference, attention, Llama-style decoding with a KV cache, embeddings and
losses, mixture-of-experts routing, recurrent scans, iterative solvers and
ODEs, per-example gradients, sorting, FFT, big elementwise maps, reductions
and a scatter-based graph step.

Each program is a builder `name(small=False)` returning (fn, args), as in
workloads.py: fn is a plain JAX function, args a pytree of arrays built from
a fixed numpy seed (the same values on every machine). Weights, caches and
optimizer states are arguments, never closed-over constants, so the exported
programs stay small; only Python scalars (learning rates, trip counts,
tolerances) are closed over.

Sizes: small=False is the realistic size for one H200 (arguments at most
~2 GB, working set well under 40 GB, ~0.05-50 ms per call under XLA); the
first docstring line of each builder states it. small=True keeps the same
program (same ops, dtypes and control flow) with tiny dimensions, layer
counts and trip counts, for the CPU interpreter in CI (arguments of a few
MB at most, well under a second per call).

Decisions that depend on a matmul's result (MoE top-k routing, the
conjugate-gradient stopping test) use f32 matmuls at Precision.HIGHEST, so
that two GPU implementations rounding differently take the same branch.
Data-dependent loops always have an iteration cap.

`ALL` maps names to builders, `KIND` names to a category, and
`flat(name, small)` gives the function over the flattened argument leaves
(what the exported @main takes).
"""
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

F32 = jnp.float32
BF16 = jnp.bfloat16
I32 = jnp.int32
HIGHEST = lax.Precision.HIGHEST
tree_map = jax.tree_util.tree_map


# ---------------------------------------------------------------------------
# Arguments.

def _rng(seed):
    return np.random.default_rng(seed)


def _normal(r, shape, scale=1.0, dtype=F32):
    """Standard normal * scale, drawn in float32 and cast to dtype."""
    a = r.standard_normal(shape, dtype=np.float32)
    if scale != 1.0:
        a *= np.float32(scale)
    return jnp.asarray(a, dtype=dtype)


def _ints(r, high, shape):
    return jnp.asarray(r.integers(0, high, size=shape, dtype=np.int32))


def _dense(r, fan_in, fan_out):
    """A dense layer {w: fan_in x fan_out scaled 1/sqrt(fan_in), b: small}."""
    return dict(w=_normal(r, (fan_in, fan_out), 1 / np.sqrt(fan_in)),
                b=_normal(r, (fan_out,), 0.1))


def _mlp_params(r, sizes):
    return [_dense(r, a, b) for a, b in zip(sizes[:-1], sizes[1:])]


def _gain(r, shape, dtype=F32):
    """A norm's gain or a folded batch-norm scale: 1 + small noise."""
    return jnp.asarray(1.0 + 0.1 * r.standard_normal(shape, dtype=np.float32), dtype=dtype)


def _cast(tree, dtype):
    return tree_map(lambda a: a.astype(dtype), tree)


# ---------------------------------------------------------------------------
# Model pieces.

def _mlp(params, x, act):
    """Dense layers with `act` between them (none after the last)."""
    for p in params[:-1]:
        x = act(x @ p['w'] + p['b'])
    return x @ params[-1]['w'] + params[-1]['b']


def _layer_norm(x, g, b, eps=1e-5):
    """LayerNorm computed in f32, returned in x's dtype."""
    x32 = x.astype(F32)
    m = x32.mean(-1, keepdims=True)
    v = jnp.square(x32 - m).mean(-1, keepdims=True)
    return ((x32 - m) * lax.rsqrt(v + eps) * g + b).astype(x.dtype)


def _rms_norm(x, g, eps=1e-6):
    """RMSNorm computed in f32, returned in x's dtype."""
    x32 = x.astype(F32)
    y = x32 * lax.rsqrt(jnp.mean(jnp.square(x32), -1, keepdims=True) + eps)
    return (y * g.astype(F32)).astype(x.dtype)


def _rope(x, pos, theta=10000.0):
    """Rotary embedding (rotate-half form) of x [b, t, heads, hd] at
    positions pos [t], computed in f32."""
    hd = x.shape[-1]
    freqs = 1.0 / theta ** (jnp.arange(0, hd, 2, dtype=F32) / hd)
    ang = pos.astype(F32)[:, None] * freqs                  # [t, hd/2]
    cos, sin = jnp.cos(ang)[:, None, :], jnp.sin(ang)[:, None, :]
    x1, x2 = jnp.split(x.astype(F32), 2, axis=-1)
    return jnp.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], -1).astype(x.dtype)


def _attention(q, k, v, mask=None):
    """softmax(q k^T / sqrt(hd)) v with q [b, t, h, hd], k and v [b, s, kv, hd].
    With kv < h (grouped-query attention) each group of h/kv query heads
    shares one KV head (q reshaped to [b, t, kv, h/kv, hd]). `mask`
    (True = attend) broadcasts against the scores [..., t, s]. Scores in the
    inputs' dtype, softmax in f32."""
    b, t, h, hd = q.shape
    kv = k.shape[2]
    q = q * jnp.asarray(hd ** -0.5, q.dtype)
    if kv == h:
        s = jnp.einsum('bthd,bshd->bhts', q, k)
    else:
        s = jnp.einsum('btkgd,bskd->bkgts', q.reshape(b, t, kv, h // kv, hd), k)
    if mask is not None:
        s = jnp.where(mask, s, jnp.finfo(s.dtype).min)
    p = jax.nn.softmax(s.astype(F32), axis=-1).astype(v.dtype)
    if kv == h:
        return jnp.einsum('bhts,bshd->bthd', p, v)
    return jnp.einsum('bkgts,bskd->btkgd', p, v).reshape(b, t, h, hd)


def _causal(t):
    """Lower-triangular [t, t] mask. Call it inside the traced function (it
    then lowers to iota and compare): built outside, it would be closed over
    as a t*t constant in the exported program."""
    return jnp.tril(jnp.ones((t, t), dtype=bool))


def _cross_entropy(logits, labels):
    """Mean softmax cross-entropy against integer labels (log-softmax in f32)."""
    logp = jax.nn.log_softmax(logits.astype(F32), axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, labels[..., None], axis=-1))


def _conv(x, w, stride=1, padding='SAME'):
    return lax.conv_general_dilated(x, w, (stride, stride), padding,
                                    dimension_numbers=('NHWC', 'HWIO', 'NHWC'))


def _max_pool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), 'VALID')


# ---------------------------------------------------------------------------
# Optimizers: (init, update) pairs; init(r, params) builds a mid-training
# state from the generator r (never all zeros); update(params, grads, state)
# returns (params, state).

def _adam(lr=1e-3, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.0):
    """Adam (m, v, int32 step count); with weight_decay > 0, AdamW
    (decoupled weight decay)."""
    def init(r, params):
        m = tree_map(lambda p: _normal(r, p.shape, 1e-3), params)
        v = tree_map(lambda p: jnp.square(_normal(r, p.shape, 1e-3)), params)
        return dict(m=m, v=v, step=jnp.asarray(10, dtype=I32))
    def update(params, grads, state):
        step = state['step'] + 1
        t = step.astype(F32)
        m = tree_map(lambda m, g: b1 * m + (1 - b1) * g, state['m'], grads)
        v = tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state['v'], grads)
        c1, c2 = 1 / (1 - b1 ** t), 1 / (1 - b2 ** t)
        def upd(p, m, v):
            u = m * c1 / (jnp.sqrt(v * c2) + eps)
            if weight_decay:
                u = u + weight_decay * p
            return p - lr * u
        return tree_map(upd, params, m, v), dict(m=m, v=v, step=step)
    return init, update


def _sgd_momentum(lr=1e-2, mu=0.9):
    def init(r, params):
        return tree_map(lambda p: _normal(r, p.shape, 1e-3), params)
    def update(params, grads, mom):
        mom = tree_map(lambda b, g: mu * b + g, mom, grads)
        return tree_map(lambda p, b: p - lr * b, params, mom), mom
    return init, update


def _train_step(loss_fn, optimizer, r, params, *batch):
    """(fn, args) of a training step: fn(params, opt_state, *batch) ->
    (params, opt_state, loss); the optimizer state is drawn from r."""
    init, update = optimizer
    def step(params, opt_state, *batch):
        loss, grads = jax.value_and_grad(loss_fn)(params, *batch)
        params, opt_state = update(params, grads, opt_state)
        return params, opt_state, loss
    return step, (params, init(r, params)) + batch


# ---------------------------------------------------------------------------
# Training steps.

def _mlp_train(cdt, small, seed):
    sizes, batch = ([32, 64, 64, 32, 10], 8) if small else ([1024, 4096, 4096, 1024, 10], 512)
    r = _rng(seed)
    params = _mlp_params(r, sizes)
    x = _normal(r, (batch, sizes[0]), dtype=cdt)
    y = _ints(r, sizes[-1], (batch,))
    def loss(params, x, y):
        return _cross_entropy(_mlp(_cast(params, cdt), x, jax.nn.gelu), y)
    return _train_step(loss, _adam(), r, params, x, y)


def mlp_train_adam(small=False):
    """Adam training step of a gelu MLP 1024-4096-4096-1024-10, batch 512, softmax cross-entropy; f32."""
    return _mlp_train(F32, small, seed=100)


def mlp_train_adam_bf16(small=False):
    """mlp_train_adam with x 512x1024 bf16, f32 master params and Adam state, forward/backward in bf16, f32 loss."""
    return _mlp_train(BF16, small, seed=100)


def _transformer_train(cdt, optimizer, layers, d, heads, seq, batch, vocab, seed):
    r = _rng(seed)
    def n(*shape):
        return _normal(r, shape, 0.02)
    def layer():
        return dict(ln1_g=_gain(r, d), ln1_b=n(d), wqkv=n(d, 3 * d), bqkv=n(3 * d),
                    wo=n(d, d), bo=n(d), ln2_g=_gain(r, d), ln2_b=n(d),
                    w1=n(d, 4 * d), b1=n(4 * d), w2=n(4 * d, d), b2=n(d))
    params = dict(tok_emb=n(vocab, d), pos_emb=n(seq, d), layers=[layer() for _ in range(layers)],
                  lnf_g=_gain(r, d), lnf_b=n(d), w_out=n(d, vocab))
    tokens = _ints(r, vocab, (batch, seq + 1))

    def block(p, x, mask):
        h = _layer_norm(x, p['ln1_g'], p['ln1_b'])
        q, k, v = jnp.split(h @ p['wqkv'] + p['bqkv'], 3, axis=-1)
        q, k, v = (a.reshape(batch, seq, heads, d // heads) for a in (q, k, v))
        x = x + _attention(q, k, v, mask).reshape(batch, seq, d) @ p['wo'] + p['bo']
        h = _layer_norm(x, p['ln2_g'], p['ln2_b'])
        return x + jax.nn.gelu(h @ p['w1'] + p['b1']) @ p['w2'] + p['b2']

    def loss(params, tokens):
        p = _cast(params, cdt)
        x = p['tok_emb'][tokens[:, :-1]] + p['pos_emb']
        mask = _causal(seq)
        for lp in p['layers']:
            x = block(lp, x, mask)
        logits = _layer_norm(x, p['lnf_g'], p['lnf_b']) @ p['w_out']
        return _cross_entropy(logits, tokens[:, 1:])
    return _train_step(loss, optimizer, r, params, tokens)


def transformer_train_bf16(small=False):
    """AdamW step of a pre-LN causal decoder (4 layers, d 512, 8 heads, seq 256, batch 8, vocab 8192, learned positions, untied head); bf16 compute, f32 master weights."""
    cfg = (dict(layers=2, d=32, heads=4, seq=16, batch=2, vocab=128) if small else
           dict(layers=4, d=512, heads=8, seq=256, batch=8, vocab=8192))
    return _transformer_train(BF16, _adam(lr=3e-4, weight_decay=0.1), seed=101, **cfg)


def transformer_train_f32(small=False):
    """SGD-momentum step of the same decoder: 2 layers, d 256, 4 heads, seq 128, batch 8, vocab 4096; f32."""
    cfg = (dict(layers=1, d=32, heads=4, seq=16, batch=2, vocab=128) if small else
           dict(layers=2, d=256, heads=4, seq=128, batch=8, vocab=4096))
    return _transformer_train(F32, _sgd_momentum(), seed=102, **cfg)


def _cnn_train(cdt, small, seed):
    batch, hw, chans = (4, 8, [3, 8, 16, 16]) if small else (128, 32, [3, 32, 64, 128])
    classes = 10
    r = _rng(seed)
    params = dict(convs=[dict(w=_normal(r, (3, 3, ci, co), np.sqrt(2 / (9 * ci))),
                              b=_normal(r, (co,), 0.1))
                         for ci, co in zip(chans[:-1], chans[1:])],
                  head=_dense(r, chans[-1], classes))
    x = _normal(r, (batch, hw, hw, chans[0]), dtype=cdt)
    y = _ints(r, classes, (batch,))
    def loss(params, x, y):
        p = _cast(params, cdt)
        for i, c in enumerate(p['convs']):
            x = jax.nn.relu(_conv(x, c['w']) + c['b'])
            if i > 0:
                x = _max_pool(x)
        logits = x.mean(axis=(1, 2)) @ p['head']['w'] + p['head']['b']
        return _cross_entropy(logits, y)
    return _train_step(loss, _sgd_momentum(), r, params, x, y)


def cnn_train_f32(small=False):
    """SGD-momentum step of a convnet on 128x32x32x3 NHWC: conv3x3 32, conv3x3 64, pool, conv3x3 128, pool, GAP, dense 10; f32."""
    return _cnn_train(F32, small, seed=103)


def cnn_train_bf16(small=False):
    """cnn_train_f32 with input 128x32x32x3 bf16, bf16 compute and f32 master weights."""
    return _cnn_train(BF16, small, seed=103)


# ---------------------------------------------------------------------------
# Convolution inference.

def _resnet_infer(dtype, batch, hw, c, seed):
    r = _rng(seed)
    def conv_w(k, ci, co):
        return _normal(r, (k, k, ci, co), np.sqrt(2 / (k * k * ci)), dtype)
    def block(ci, co, project):
        p = dict(w1=conv_w(3, ci, co), s1=_gain(r, co, dtype), b1=_normal(r, co, 0.1, dtype),
                 w2=conv_w(3, co, co), s2=_gain(r, co, dtype), b2=_normal(r, co, 0.1, dtype))
        if project:
            p.update(wp=conv_w(1, ci, co), sp=_gain(r, co, dtype), bp=_normal(r, co, 0.1, dtype))
        return p
    blocks = [block(c, c, False), block(c, c, False), block(c, 2 * c, True)]
    x = jax.nn.relu(_normal(r, (batch, hw, hw, c), dtype=dtype))
    pad = ((1, 1), (1, 1))

    def basic_block(x, p, stride):
        y = jax.nn.relu(_conv(x, p['w1'], stride, pad) * p['s1'] + p['b1'])
        y = _conv(y, p['w2'], 1, pad) * p['s2'] + p['b2']
        if 'wp' in p:
            x = _conv(x, p['wp'], stride, 'VALID') * p['sp'] + p['bp']
        return jax.nn.relu(y + x)

    def f(x, blocks):
        x = basic_block(x, blocks[0], 1)
        x = basic_block(x, blocks[1], 1)
        return basic_block(x, blocks[2], 2)
    return f, (x, blocks)


def resnet_infer_bf16(small=False):
    """Two ResNet basic blocks at 32x56x56x64 NHWC (conv3x3, folded BN, relu) then a stride-2 block to 28x28x128 with a 1x1 projection; bf16."""
    return _resnet_infer(BF16, *((2, 8, 8) if small else (32, 56, 64)), seed=110)


def resnet_infer_f32(small=False):
    """resnet_infer_bf16 in f32 with batch 16: input 16x56x56x64, output 16x28x28x128."""
    return _resnet_infer(F32, *((2, 8, 8) if small else (16, 56, 64)), seed=111)


# ---------------------------------------------------------------------------
# Attention.

def _attention_program(batch, seq, heads, kv_heads, hd, causal, dtype, seed):
    r = _rng(seed)
    q = _normal(r, (batch, seq, heads, hd), dtype=dtype)
    k = _normal(r, (batch, seq, kv_heads, hd), dtype=dtype)
    v = _normal(r, (batch, seq, kv_heads, hd), dtype=dtype)
    def f(q, k, v):
        return _attention(q, k, v, _causal(seq) if causal else None)
    return f, (q, k, v)


def attention_causal_2k_bf16(small=False):
    """Causal attention, q/k/v 4x2048x16x64 (batch, seq, heads, head dim), bf16 (softmax in f32)."""
    cfg = (2, 16, 4, 4, 16) if small else (4, 2048, 16, 16, 64)
    return _attention_program(*cfg, causal=True, dtype=BF16, seed=120)


def attention_4k_bf16(small=False):
    """Non-causal attention, q/k/v 2x4096x16x64, bf16 (softmax in f32)."""
    cfg = (2, 32, 4, 4, 16) if small else (2, 4096, 16, 16, 64)
    return _attention_program(*cfg, causal=False, dtype=BF16, seed=121)


def attention_gqa_8k_bf16(small=False):
    """Causal grouped-query attention, q 1x8192x32x128, k/v 1x8192x8x128, bf16 (softmax in f32)."""
    cfg = (1, 32, 8, 2, 16) if small else (1, 8192, 32, 8, 128)
    return _attention_program(*cfg, causal=True, dtype=BF16, seed=122)


def attention_causal_2k_f32(small=False):
    """Causal attention, q/k/v 2x2048x8x64, f32."""
    cfg = (2, 16, 4, 4, 16) if small else (2, 2048, 8, 8, 64)
    return _attention_program(*cfg, causal=True, dtype=F32, seed=123)


def attention_dpa_causal_bf16(small=False):
    """jax.nn.dot_product_attention, causal, q 4x2048x16x128, k/v 4x2048x4x128 (grouped), bf16; XLA may
    take cuDNN's fused attention for it."""
    batch, seq, heads, kv_heads, hd = (2, 16, 4, 2, 16) if small else (4, 2048, 16, 4, 128)
    r = _rng(124)
    q = _normal(r, (batch, seq, heads, hd), dtype=BF16)
    k = _normal(r, (batch, seq, kv_heads, hd), dtype=BF16)
    v = _normal(r, (batch, seq, kv_heads, hd), dtype=BF16)
    def f(q, k, v):
        return jax.nn.dot_product_attention(q, k, v, is_causal=True)
    return f, (q, k, v)


# ---------------------------------------------------------------------------
# Llama-style decoding: one token per sequence with a KV cache.

_LLAMA_BIG = dict(layers=4, d=2048, heads=16, kv_heads=4, hd=128, mlp=5632, vocab=32000, ctx=2048)
_LLAMA_MID = dict(layers=4, d=1024, heads=8, kv_heads=2, hd=128, mlp=2816, vocab=32000, ctx=1024)
_LLAMA_SMALL = dict(layers=2, d=64, heads=4, kv_heads=2, hd=16, mlp=128, vocab=256, ctx=32)


def _quantize_int8(w):
    """w [..., k, n] as int8 with a bf16 scale per output channel (max |w| / 127 over k)."""
    scale = jnp.max(jnp.abs(w.astype(F32)), axis=-2, keepdims=True) / 127.0
    q = jnp.clip(jnp.round(w.astype(F32) / scale), -127, 127).astype(jnp.int8)
    return dict(q=q, s=scale.astype(BF16))


def _mm(h, w):
    """h @ w, where w is an array or an int8 weight with its scales."""
    if isinstance(w, dict):
        return (h @ w['q'].astype(h.dtype)) * w['s'].reshape(w['s'].shape[-1])
    return h @ w


def _llama_decode(batch, dtype, seed, layers, d, heads, kv_heads, hd, mlp, vocab, ctx, int8_weights=False):
    r = _rng(seed)
    def w(*shape):
        weight = _normal(r, shape, 1 / np.sqrt(shape[-2]), dtype)
        return _quantize_int8(weight) if int8_weights else weight
    L = layers
    params = dict(emb=_normal(r, (vocab, d), dtype=dtype),
                  layers=dict(attn_norm=_gain(r, (L, d), dtype),
                              wq=w(L, d, heads * hd), wk=w(L, d, kv_heads * hd),
                              wv=w(L, d, kv_heads * hd), wo=w(L, heads * hd, d),
                              mlp_norm=_gain(r, (L, d), dtype),
                              w_gate=w(L, d, mlp), w_up=w(L, d, mlp), w_down=w(L, mlp, d)),
                  norm=_gain(r, d, dtype), w_out=w(d, vocab))
    k_cache = _normal(r, (L, batch, ctx, kv_heads, hd), dtype=dtype)
    v_cache = _normal(r, (L, batch, ctx, kv_heads, hd), dtype=dtype)
    tokens = _ints(r, vocab, (batch,))
    pos = jnp.asarray(ctx // 2 + 3, dtype=I32)

    def f(params, k_cache, v_cache, tokens, pos):
        x = params['emb'][tokens]                                    # [b, d]
        mask = jnp.arange(ctx) <= pos                                # attend to 0..pos
        def layer(x, lp_kv):
            p, kc, vc = lp_kv
            h = _rms_norm(x, p['attn_norm'])
            q = _rope(_mm(h, p['wq']).reshape(batch, 1, heads, hd), pos[None])
            k = _rope(_mm(h, p['wk']).reshape(batch, 1, kv_heads, hd), pos[None])
            v = _mm(h, p['wv']).reshape(batch, 1, kv_heads, hd)
            kc = lax.dynamic_update_slice(kc, k, (0, pos, 0, 0))
            vc = lax.dynamic_update_slice(vc, v, (0, pos, 0, 0))
            o = _attention(q, kc, vc, mask).reshape(batch, heads * hd)
            x = x + _mm(o, p['wo'])
            h = _rms_norm(x, p['mlp_norm'])
            x = x + _mm(jax.nn.silu(_mm(h, p['w_gate'])) * _mm(h, p['w_up']), p['w_down'])
            return x, (kc, vc)
        x, (k_cache, v_cache) = lax.scan(layer, x, (params['layers'], k_cache, v_cache))
        logits = _mm(_rms_norm(x, params['norm']), params['w_out']).astype(F32)
        return logits, k_cache, v_cache
    return f, (params, k_cache, v_cache, tokens, pos)


def llama_decode_b1_bf16(small=False):
    """Llama decode step (4 layers, d 2048, 16/4 heads of 128, SwiGLU 5632, vocab 32000, cache 2048), batch 1; bf16 weights and cache."""
    return _llama_decode(1, BF16, 130, **(_LLAMA_SMALL if small else _LLAMA_BIG))


def llama_decode_b8_bf16(small=False):
    """llama_decode_b1_bf16 with batch 8 (caches 4x8x2048x4x128 bf16)."""
    return _llama_decode(2 if small else 8, BF16, 131, **(_LLAMA_SMALL if small else _LLAMA_BIG))


def llama_decode_b32_bf16(small=False):
    """llama_decode_b1_bf16 with batch 32 (caches 4x32x2048x4x128 bf16)."""
    return _llama_decode(4 if small else 32, BF16, 132, **(_LLAMA_SMALL if small else _LLAMA_BIG))


def llama_decode_b4_f32(small=False):
    """Llama decode step (4 layers, d 1024, 8/2 heads of 128, SwiGLU 2816, vocab 32000, cache 1024), batch 4; f32."""
    return _llama_decode(2 if small else 4, F32, 133, **(_LLAMA_SMALL if small else _LLAMA_MID))


# ---------------------------------------------------------------------------
# Embeddings and losses.

def embedding_grad(small=False):
    """Loss and gradients of gather(table 32000x1024, ids 16x512) @ W 1024x128 vs targets: the table gradient is a scatter-add; f32."""
    vocab, d, batch, seq, dp = (512, 32, 2, 16, 8) if small else (32000, 1024, 16, 512, 128)
    r = _rng(140)
    table = _normal(r, (vocab, d))
    w = _normal(r, (d, dp), 1 / np.sqrt(d))
    ids = _ints(r, vocab, (batch, seq))
    target = _normal(r, (batch, seq, dp), 0.5)
    def f(table, w, ids, target):
        def loss(table, w):
            return jnp.mean(jnp.square(jnp.tanh(table[ids] @ w) - target))
        l, (g_table, g_w) = jax.value_and_grad(loss, argnums=(0, 1))(table, w)
        return l, g_table, g_w
    return f, (table, w, ids, target)


def cross_entropy_32k(small=False):
    """Mean cross-entropy of hidden 2048x1024 @ W 1024x32768 against int labels, with gradients w.r.t. W and hidden; f32."""
    n, d, vocab = (16, 32, 256) if small else (2048, 1024, 32768)
    r = _rng(141)
    hidden = _normal(r, (n, d))
    w = _normal(r, (d, vocab), 1 / np.sqrt(d))
    labels = _ints(r, vocab, (n,))
    def f(hidden, w, labels):
        def loss(w, hidden):
            return _cross_entropy(hidden @ w, labels)
        l, (g_w, g_hidden) = jax.value_and_grad(loss, argnums=(0, 1))(w, hidden)
        return l, g_w, g_hidden
    return f, (hidden, w, labels)


def cross_entropy_128k_bf16(small=False):
    """Mean cross-entropy of logits 1024x131072 bf16 against int labels and its bf16 gradient (log-softmax in f32)."""
    n, vocab = (16, 512) if small else (1024, 131072)
    r = _rng(142)
    logits = _normal(r, (n, vocab), 2.0, BF16)
    labels = _ints(r, vocab, (n,))
    def f(logits, labels):
        return jax.value_and_grad(_cross_entropy)(logits, labels)
    return f, (logits, labels)


# ---------------------------------------------------------------------------
# Mixture of experts.

def _moe(tokens, d, experts, k, hidden, dtype, seed):
    """The k-th and (k+1)-th router probabilities of every token differ by
    at least 2e-4 (relative) for these seeds, far above f32 rounding."""
    capacity = int(1.25 * tokens * k / experts)
    r = _rng(seed)
    x = _normal(r, (tokens, d), dtype=dtype)
    w_router = _normal(r, (d, experts), 1 / np.sqrt(d))
    w1 = _normal(r, (experts, d, hidden), 1 / np.sqrt(d), dtype)
    b1 = _normal(r, (experts, 1, hidden), 0.1, dtype)
    w2 = _normal(r, (experts, hidden, d), 1 / np.sqrt(hidden), dtype)

    def f(x, w_router, w1, b1, w2):
        logits = jnp.dot(x.astype(F32), w_router, precision=HIGHEST)
        gate, expert = lax.top_k(jax.nn.softmax(logits, axis=-1), k)      # [T, k]
        # Assignments in priority order: every token's first choice, then
        # every token's second choice, ...
        gate, expert = gate.T.reshape(-1), expert.T.reshape(-1)           # [k*T]
        onehot = jax.nn.one_hot(expert, experts, dtype=I32)
        slot = jnp.sum(jnp.cumsum(onehot, axis=0) * onehot, axis=-1) - 1  # place in expert's buffer
        xs = jnp.tile(x, (k, 1))
        buf = jnp.zeros((experts, capacity, d), dtype).at[expert, slot].set(xs, mode='drop')
        h = jax.nn.gelu(jnp.einsum('ecd,edf->ecf', buf, w1) + b1)
        out = jnp.einsum('ecf,efd->ecd', h, w2)
        y = out.at[expert, slot].get(mode='fill', fill_value=0)         # dropped -> 0
        return (y * gate[:, None].astype(dtype)).reshape(k, tokens, d).sum(0)
    return f, (x, w_router, w1, b1, w2)


def moe_top2_bf16(small=False):
    """Top-2 MoE layer: tokens 4096x1024 bf16, 8 experts (gelu MLP 1024-4096-1024), capacity 1280, scatter dispatch / gather combine."""
    cfg = (64, 16, 4, 2, 32) if small else (4096, 1024, 8, 2, 4096)
    return _moe(*cfg, dtype=BF16, seed=150)


def moe_top1_f32(small=False):
    """Top-1 MoE layer: tokens 2048x512 f32, 16 experts (gelu MLP 512-2048-512), capacity 160."""
    cfg = (64, 16, 4, 1, 32) if small else (2048, 512, 16, 1, 2048)
    return _moe(*cfg, dtype=F32, seed=151)


# ---------------------------------------------------------------------------
# Recurrent networks.

def lstm_scan(small=False):
    """LSTM over seq 128 (lax.scan), batch 64, input 256, hidden 512; returns all h (128x64x512) and final (h, c); f32."""
    seq, batch, nin, nh = (8, 2, 16, 32) if small else (128, 64, 256, 512)
    r = _rng(160)
    xs = _normal(r, (seq, batch, nin))
    h0, c0 = _normal(r, (batch, nh), 0.1), _normal(r, (batch, nh), 0.1)
    w_x = _normal(r, (nin, 4 * nh), 1 / np.sqrt(nin))
    w_h = _normal(r, (nh, 4 * nh), 1 / np.sqrt(nh))
    b = _normal(r, (4 * nh,), 0.1)
    def f(xs, h0, c0, w_x, w_h, b):
        xw = xs @ w_x + b                                   # input projections, all steps
        def cell(hc, xw_t):
            h, c = hc
            i, fg, g, o = jnp.split(xw_t + h @ w_h, 4, axis=-1)
            c = jax.nn.sigmoid(fg) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h
        (h, c), hs = lax.scan(cell, (h0, c0), xw)
        return hs, (h, c)
    return f, (xs, h0, c0, w_x, w_h, b)


def gru_scan_bf16(small=False):
    """GRU over seq 256 (lax.scan), batch 32, input 256, hidden 256; returns all h (256x32x256) and the final h; bf16."""
    seq, batch, nin, nh = (8, 2, 16, 16) if small else (256, 32, 256, 256)
    r = _rng(161)
    xs = _normal(r, (seq, batch, nin), dtype=BF16)
    h0 = _normal(r, (batch, nh), 0.1, BF16)
    w_x = _normal(r, (nin, 3 * nh), 1 / np.sqrt(nin), BF16)
    w_h = _normal(r, (nh, 3 * nh), 1 / np.sqrt(nh), BF16)
    b_x = _normal(r, (3 * nh,), 0.1, BF16)
    b_h = _normal(r, (3 * nh,), 0.1, BF16)
    def f(xs, h0, w_x, w_h, b_x, b_h):
        xw = xs @ w_x + b_x
        def cell(h, xw_t):
            xr, xz, xn = jnp.split(xw_t, 3, axis=-1)
            hr, hz, hn = jnp.split(h @ w_h + b_h, 3, axis=-1)
            rg = jax.nn.sigmoid(xr + hr)
            z = jax.nn.sigmoid(xz + hz)
            n = jnp.tanh(xn + rg * hn)
            h = (1 - z) * n + z * h
            return h, h
        h, hs = lax.scan(cell, h0, xw)
        return hs, h
    return f, (xs, h0, w_x, w_h, b_x, b_h)


# ---------------------------------------------------------------------------
# Solvers and ODEs.

def cg_solve(small=False):
    """Conjugate gradient (lax.while_loop) for A x = b, A 4096x4096 SPD f32, HIGHEST-precision matvecs, until |r| < 1e-5 |b| or 300 iterations; returns (x, iterations).

    A = M M^T / n + I (M standard normal) has its spectrum in about [1, 5]:
    13 iterations at full size (|r|/|b| = 1.4e-5 after 12, 5.2e-6 after 13),
    11 at small size."""
    n = 32 if small else 4096
    tol, max_iters = 1e-5, 300
    r = _rng(170)
    m = r.standard_normal((n, n), dtype=np.float32)
    a = jnp.asarray(m @ m.T / np.float32(n) + np.eye(n, dtype=np.float32))
    del m
    b = _normal(r, (n,))
    def f(a, b):
        def dot(u, w):
            return jnp.dot(u, w, precision=HIGHEST)
        stop = tol * tol * dot(b, b)
        def cond(c):
            _, _, _, rr, i = c
            return (rr >= stop) & (i < max_iters)
        def body(c):
            x, res, p, rr, i = c
            ap = dot(a, p)
            alpha = rr / dot(p, ap)
            x = x + alpha * p
            res = res - alpha * ap
            rr_new = dot(res, res)
            return x, res, res + (rr_new / rr) * p, rr_new, i + 1
        init = (jnp.zeros_like(b), b, b, dot(b, b), jnp.int32(0))   # x, residual, direction, |r|^2, i
        x, _, _, _, i = lax.while_loop(cond, body, init)
        return x, i
    return f, (a, b)


def newton_kepler(small=False):
    """Elementwise Newton solve of Kepler's equation E - e sin E = M for 16M f32 (M, e) in a while_loop, until max|dE| < 1e-6 or 50 iterations; returns (E, iterations).

    M uniform in [-pi, pi), e in [0, 0.9); start E = M (E = +-pi for e >= 0.8).
    8 iterations at both sizes (max|dE| = 1.7e-5 at the 7th, 3.4e-7 at the
    8th at full size: the last step is at the f32 rounding level)."""
    n = 4096 if small else 1 << 24
    tol, max_iters = 1e-6, 50
    r = _rng(171)
    mean_anomaly = jnp.asarray(r.uniform(-np.pi, np.pi, n).astype(np.float32))
    ecc = jnp.asarray(r.uniform(0.0, 0.9, n).astype(np.float32))
    def f(m, e):
        def cond(c):
            _, err, i = c
            return (err >= tol) & (i < max_iters)
        def body(c):
            ea, _, i = c
            d = (ea - e * jnp.sin(ea) - m) / (1 - e * jnp.cos(ea))
            return ea - d, jnp.max(jnp.abs(d)), i + 1
        ea0 = jnp.where(e < 0.8, m, jnp.pi * jnp.sign(m))
        ea, _, i = lax.while_loop(cond, body, (ea0, jnp.float32(jnp.inf), jnp.int32(0)))
        return ea, i
    return f, (mean_anomaly, ecc)


def ode_rk4_mlp(small=False):
    """Neural ODE: 100 RK4 steps (lax.fori_loop, dt 0.01) of dy/dt = MLP(y), MLP 64-256-256-64 tanh, y 256x64; f32."""
    batch, dim, hidden, steps = (4, 8, 16, 5) if small else (256, 64, 256, 100)
    dt = 0.01
    r = _rng(172)
    y0 = _normal(r, (batch, dim))
    params = _mlp_params(r, [dim, hidden, hidden, dim])
    def f(y0, params):
        def dynamics(y):
            return _mlp(params, y, jnp.tanh)
        def step(i, y):
            k1 = dynamics(y)
            k2 = dynamics(y + 0.5 * dt * k1)
            k3 = dynamics(y + 0.5 * dt * k2)
            k4 = dynamics(y + dt * k3)
            return y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return lax.fori_loop(0, steps, step, y0)
    return f, (y0, params)


# ---------------------------------------------------------------------------
# Per-example gradients.

def per_example_grads(small=False):
    """DP-SGD style: vmap(grad) over 128 examples of a relu MLP 256-512-512-10, per-example clipping to global norm 1, averaged; f32."""
    batch, sizes = (4, [16, 32, 32, 10]) if small else (128, [256, 512, 512, 10])
    clip = 1.0
    r = _rng(180)
    params = _mlp_params(r, sizes)
    x = _normal(r, (batch, sizes[0]))
    y = _ints(r, sizes[-1], (batch,))
    def f(params, x, y):
        def loss(p, xi, yi):
            return _cross_entropy(_mlp(p, xi[None], jax.nn.relu), yi[None])
        grads = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(params, x, y)
        sq = sum(jnp.sum(jnp.square(g).reshape(batch, -1), axis=1)
                 for g in jax.tree_util.tree_leaves(grads))
        norms = jnp.sqrt(sq)                                           # [batch]
        scale = jnp.minimum(1.0, clip / (norms + 1e-6))
        def clip_mean(g):
            return jnp.mean(g * scale.reshape((-1,) + (1,) * (g.ndim - 1)), axis=0)
        return tree_map(clip_mean, grads), norms
    return f, (params, x, y)


# ---------------------------------------------------------------------------
# Sorting and selection.

def sort_rows(small=False):
    """jnp.sort along the last axis of 16384x1024 f32."""
    shape = (16, 64) if small else (16384, 1024)
    x = _normal(_rng(190), shape)
    return (lambda x: jnp.sort(x, axis=-1)), (x,)


def argsort_large(small=False):
    """jnp.argsort (stable) along the last axis of 16x65536 f32; int32 indices."""
    shape = (4, 256) if small else (16, 65536)
    x = _normal(_rng(191), shape)
    return (lambda x: jnp.argsort(x, axis=-1)), (x,)


def top_k_vocab(small=False):
    """lax.top_k with k=50 over logits 256x131072 f32; returns values and int32 indices."""
    shape = (8, 512) if small else (256, 131072)
    x = _normal(_rng(192), shape, 3.0)
    return (lambda x: lax.top_k(x, 50)), (x,)


# ---------------------------------------------------------------------------
# FFT.

def fft_batch(small=False):
    """Wiener-style filtering of 1024 signals of 4096 complex64: fft, |X|^2, gain from a filter argument (4096 f32), ifft."""
    rows, n = (4, 64) if small else (1024, 4096)
    r = _rng(200)
    x = jnp.asarray((r.standard_normal((rows, n), dtype=np.float32)
                     + 1j * r.standard_normal((rows, n), dtype=np.float32)).astype(np.complex64))
    filt = jnp.asarray(r.uniform(0.0, 1.0, n).astype(np.float32))
    def f(x, filt):
        spec = jnp.fft.fft(x, axis=-1)
        power = jnp.square(jnp.abs(spec))
        gain = filt * power / (power + jnp.mean(power, axis=-1, keepdims=True))
        return jnp.fft.ifft(spec * gain, axis=-1)
    return f, (x, filt)


def fno_spectral_2d(small=False):
    """A Fourier neural operator layer: rfft2 of 8x32x128x128 f32 fields, the lowest 16x16 modes
    (two corners) mixed across 32 channels by complex weights, irfft2, plus a 1x1 channel mix, gelu."""
    b, c, n, m = (2, 4, 16, 16) if small else (8, 32, 128, 128)
    k = 4 if small else 16
    r = _rng(201)
    x = _normal(r, (b, c, n, n))
    w1 = jnp.asarray(((r.standard_normal((c, c, k, k)) + 1j * r.standard_normal((c, c, k, k))) / c).astype(np.complex64))
    w2 = jnp.asarray(((r.standard_normal((c, c, k, k)) + 1j * r.standard_normal((c, c, k, k))) / c).astype(np.complex64))
    mix = _normal(r, (c, c), 1 / np.sqrt(c))
    def f(x, w1, w2, mix):
        spec = jnp.fft.rfft2(x)                                  # (b, c, n, n/2+1)
        out = jnp.zeros((b, c, n, n // 2 + 1), jnp.complex64)
        out = out.at[:, :, :k, :k].set(jnp.einsum('bixy,ioxy->boxy', spec[:, :, :k, :k], w1))
        out = out.at[:, :, -k:, :k].set(jnp.einsum('bixy,ioxy->boxy', spec[:, :, -k:, :k], w2))
        y = jnp.fft.irfft2(out, s=(n, n))
        return jax.nn.gelu(y + jnp.einsum('bixy,io->boxy', x, mix))
    return f, (x, w1, w2, mix)


# ---------------------------------------------------------------------------
# Large elementwise maps and reductions.

def elementwise_bf16(small=False):
    """y = gelu(x*a + b) * sigmoid(x) over x 65536x2048 bf16 (128M elements), a and b per channel (2048); bf16."""
    rows, cols = (32, 2048) if small else (65536, 2048)
    r = _rng(210)
    x = _normal(r, (rows, cols), dtype=BF16)
    a = _gain(r, cols, BF16)
    b = _normal(r, (cols,), 0.1, BF16)
    def f(x, a, b):
        return jax.nn.gelu(x * a + b) * jax.nn.sigmoid(x)
    return f, (x, a, b)


def reduce_every_axis(small=False):
    """x 256x512x1024 f32: sum over axis 0, mean over axis 1, max over axis 2, variance over axes (0, 2)."""
    shape = (8, 16, 32) if small else (256, 512, 1024)
    x = _normal(_rng(211), shape)
    def f(x):
        return x.sum(axis=0), x.mean(axis=1), x.max(axis=2), x.var(axis=(0, 2))
    return f, (x,)


def softmax_rows_bf16(small=False):
    """Row softmax of 8192x32768 bf16 (f32 inside), bf16 result."""
    shape = (16, 256) if small else (8192, 32768)
    x = _normal(_rng(212), shape, 2.0, BF16)
    def f(x):
        return jax.nn.softmax(x.astype(F32), axis=-1).astype(BF16)
    return f, (x,)


# ---------------------------------------------------------------------------
# Scatter.

def segment_sum_gnn(small=False):
    """Graph message passing: x 100000x64 f32, 1M edges; relu(x[src] @ W) summed per dst by segment_sum, out = relu(x @ W_self + agg)."""
    nodes, edges, d = (1000, 5000, 16) if small else (100000, 1000000, 64)
    r = _rng(220)
    x = _normal(r, (nodes, d))
    src = _ints(r, nodes, (edges,))
    dst = _ints(r, nodes, (edges,))
    w = _normal(r, (d, d), 1 / np.sqrt(d))
    w_self = _normal(r, (d, d), 1 / np.sqrt(d))
    def f(x, src, dst, w, w_self):
        messages = jax.nn.relu(x[src] @ w)
        agg = jax.ops.segment_sum(messages, dst, num_segments=nodes)
        return jax.nn.relu(x @ w_self + agg)
    return f, (x, src, dst, w, w_self)


def conv_large_bf16(small=False):
    """One 3x3 convolution, x 64x28x28x256 NHWC by w 3x3x256x256 HWIO, bf16 (59 GFLOP: the tensor cores' share)."""
    r = _rng(112)
    n, hw, c = (2, 6, 8) if small else (64, 28, 256)
    x = _normal(r, (n, hw, hw, c), dtype=BF16)
    w = _normal(r, (3, 3, c, c), np.sqrt(2 / (9 * c)), BF16)
    return (lambda x, w: _conv(x, w)), (x, w)


def conv_grad_mixed_bf16(small=False):
    """Gradients of sum(conv(x, w)^2) for a 3x3 stride-2 convolution with bf16 operands and an f32 result
    (preferred_element_type), x 32x56x56x128, w 3x3x128x256: forward, input and filter gradients."""
    r = _rng(113)
    n, hw, ci, co = (2, 8, 4, 8) if small else (32, 56, 128, 256)
    x = _normal(r, (n, hw, hw, ci), dtype=BF16)
    w = _normal(r, (3, 3, ci, co), np.sqrt(2 / (9 * ci)), BF16)
    def loss(x, w):
        y = lax.conv_general_dilated(x, w, (2, 2), 'SAME', dimension_numbers=('NHWC', 'HWIO', 'NHWC'),
                                     preferred_element_type=F32)
        return jnp.sum(y * y)
    return jax.grad(loss, argnums=(0, 1)), (x, w)


# ---------------------------------------------------------------------------
# Quantized products: 8-bit operands on the tensor cores, against bf16.

def _gemm_operands(r, n, dtype):
    """Two n x n operands, values in [-4, 4) (exact in every 8-bit format)."""
    a = jnp.asarray(r.integers(-4, 4, size=(n, n), dtype=np.int32), dtype=dtype)
    b = jnp.asarray(r.integers(-4, 4, size=(n, n), dtype=np.int32), dtype=dtype)
    return a, b


def gemm_bf16(small=False):
    """x @ w, both 4096x4096 bf16, bf16 result: the baseline of the 8-bit products."""
    a, b = _gemm_operands(_rng(240), 64 if small else 4096, BF16)
    return (lambda a, b: a @ b), (a, b)


def gemm_int8(small=False):
    """x @ w, both 4096x4096 int8, int32 result (preferred_element_type), as AQT and JAX int8 matmuls write it."""
    a, b = _gemm_operands(_rng(241), 64 if small else 4096, jnp.int8)
    return (lambda a, b: jnp.dot(a, b, preferred_element_type=I32)), (a, b)


def gemm_fp8(small=False):
    """x @ w^T, e4m3fn 4096x4096 each, f32 accumulation scaled by per-tensor scales, bf16 result."""
    r = _rng(242)
    a, b = _gemm_operands(r, 64 if small else 4096, jnp.float8_e4m3fn)
    sa, sb = jnp.asarray(0.5, F32), jnp.asarray(0.25, F32)
    def f(a, b, sa, sb):
        y = lax.dot_general(a, b, (((1,), (1,)), ((), ())), preferred_element_type=F32)
        return (y * (sa * sb)).astype(BF16)
    return f, (a, b, sa, sb)


def llama_decode_b1_int8w(small=False):
    """llama_decode_b1_bf16 with int8 weights and a bf16 scale per output channel (weight-only quantization):
    each product is (h @ w.astype(bf16)) * scale."""
    return _llama_decode(1, BF16, 130, int8_weights=True, **(_LLAMA_SMALL if small else _LLAMA_BIG))


# ---------------------------------------------------------------------------

ALL = dict(
    mlp_train_adam=mlp_train_adam, mlp_train_adam_bf16=mlp_train_adam_bf16,
    transformer_train_bf16=transformer_train_bf16, transformer_train_f32=transformer_train_f32,
    cnn_train_f32=cnn_train_f32, cnn_train_bf16=cnn_train_bf16,
    resnet_infer_bf16=resnet_infer_bf16, resnet_infer_f32=resnet_infer_f32,
    conv_large_bf16=conv_large_bf16, conv_grad_mixed_bf16=conv_grad_mixed_bf16,
    attention_causal_2k_bf16=attention_causal_2k_bf16, attention_4k_bf16=attention_4k_bf16,
    attention_gqa_8k_bf16=attention_gqa_8k_bf16, attention_causal_2k_f32=attention_causal_2k_f32,
    attention_dpa_causal_bf16=attention_dpa_causal_bf16,
    llama_decode_b1_bf16=llama_decode_b1_bf16, llama_decode_b8_bf16=llama_decode_b8_bf16,
    llama_decode_b32_bf16=llama_decode_b32_bf16, llama_decode_b4_f32=llama_decode_b4_f32,
    embedding_grad=embedding_grad, cross_entropy_32k=cross_entropy_32k,
    cross_entropy_128k_bf16=cross_entropy_128k_bf16,
    moe_top2_bf16=moe_top2_bf16, moe_top1_f32=moe_top1_f32,
    lstm_scan=lstm_scan, gru_scan_bf16=gru_scan_bf16,
    cg_solve=cg_solve, newton_kepler=newton_kepler, ode_rk4_mlp=ode_rk4_mlp,
    per_example_grads=per_example_grads,
    sort_rows=sort_rows, argsort_large=argsort_large, top_k_vocab=top_k_vocab,
    fft_batch=fft_batch, fno_spectral_2d=fno_spectral_2d,
    elementwise_bf16=elementwise_bf16, reduce_every_axis=reduce_every_axis,
    softmax_rows_bf16=softmax_rows_bf16,
    segment_sum_gnn=segment_sum_gnn,
    gemm_bf16=gemm_bf16, gemm_int8=gemm_int8, gemm_fp8=gemm_fp8, llama_decode_b1_int8w=llama_decode_b1_int8w,
)

KIND = dict(
    mlp_train_adam='training', mlp_train_adam_bf16='training',
    transformer_train_bf16='training', transformer_train_f32='training',
    cnn_train_f32='training', cnn_train_bf16='training',
    resnet_infer_bf16='convolution', resnet_infer_f32='convolution',
    conv_large_bf16='convolution', conv_grad_mixed_bf16='convolution',
    attention_causal_2k_bf16='attention', attention_4k_bf16='attention',
    attention_gqa_8k_bf16='attention', attention_causal_2k_f32='attention',
    attention_dpa_causal_bf16='attention',
    llama_decode_b1_bf16='decode', llama_decode_b8_bf16='decode',
    llama_decode_b32_bf16='decode', llama_decode_b4_f32='decode',
    embedding_grad='embedding', cross_entropy_32k='loss', cross_entropy_128k_bf16='loss',
    moe_top2_bf16='moe', moe_top1_f32='moe',
    lstm_scan='recurrent', gru_scan_bf16='recurrent',
    cg_solve='solver', newton_kepler='solver', ode_rk4_mlp='ode',
    per_example_grads='per_example',
    sort_rows='sort', argsort_large='sort', top_k_vocab='sort',
    fft_batch='fft', fno_spectral_2d='fft',
    elementwise_bf16='elementwise', reduce_every_axis='reduction', softmax_rows_bf16='reduction',
    segment_sum_gnn='scatter',
    gemm_bf16='quantized', gemm_int8='quantized', gemm_fp8='quantized', llama_decode_b1_int8w='quantized',
)


def flat(name, small=False):
    """(g, leaves, treedef) as in workloads.flat: g takes the pytree leaves of
    the program's args in jax.tree_util.tree_flatten order (what the exported
    @main takes); g.__name__ = name, so the module is @jit_<name>."""
    fn, args = ALL[name](small)
    leaves, treedef = jax.tree_util.tree_flatten(args)
    def g(*leaves):
        return fn(*jax.tree_util.tree_unflatten(treedef, leaves))
    g.__name__ = name
    return g, leaves, treedef
