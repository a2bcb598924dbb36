"""Registry of JAX programs used to build the StableHLO test corpus.

Every entry is a :class:`Program`: a named, categorised JAX function plus a
recipe for example arguments drawn from a numpy RNG seeded by the program's
name.  Only the shapes and dtypes of the arguments matter for lowering; the
values are there so the functions can also be executed as a reference.

Typical use from test code (with ``tools/corpus`` on ``sys.path``)::

    from programs import PROGRAMS, by_name

    prog = by_name("conv2d_nhwc_strided")
    args = prog.args()                 # numpy arrays (or pytrees of them)
    specs = prog.arg_specs()           # jax.ShapeDtypeStruct pytrees
    text = prog.lower().as_text()      # StableHLO text
    with prog.context():               # needed to execute x64 programs
        out = prog.jitted()(*args)

Programs with ``num_devices > 1`` need that many devices, e.g. by setting
``XLA_FLAGS=--xla_force_host_platform_device_count=8`` before JAX starts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import zlib
from typing import Callable

import jax
import jax.numpy as jnp
import jax.scipy as jsp
import numpy as np
from jax import lax
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

ArgMaker = Callable[[np.random.Generator], tuple]

SHARDED_DEVICE_COUNT = 8


@dataclasses.dataclass(frozen=True)
class Program:
    """One corpus entry."""

    name: str
    category: str
    fn: Callable
    make_args: ArgMaker
    # Keyword arguments for jax.jit, built lazily because meshes need devices.
    jit_options: Callable[[], dict] | None = None
    x64: bool = False
    num_devices: int = 1
    # Lowered for these platforms instead of the default one: ("cuda",)
    # shows what JAX writes for a GPU (jnp.cumsum as chlo.scan). The
    # reference results still come from XLA:CPU.
    platforms: tuple[str, ...] | None = None

    @property
    def seed(self) -> int:
        return zlib.crc32(self.name.encode())

    def args(self) -> tuple:
        """Example arguments: a tuple of numpy arrays or pytrees of them."""
        with self.context():
            return tuple(self.make_args(np.random.default_rng(self.seed)))

    def arg_specs(self) -> tuple:
        """The arguments as pytrees of jax.ShapeDtypeStruct."""
        return jax.tree.map(lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype), self.args())

    def context(self):
        """Context in which this program must be traced and run."""
        return jax.enable_x64(True) if self.x64 else contextlib.nullcontext()

    def jitted(self) -> Callable:
        options = self.jit_options() if self.jit_options else {}
        return jax.jit(self.fn, **options)

    def lower(self):
        if jax.device_count() < self.num_devices:
            raise RuntimeError(
                f"program {self.name!r} needs {self.num_devices} devices, found "
                f"{jax.device_count()}; set XLA_FLAGS=--xla_force_host_platform_"
                f"device_count={self.num_devices} before importing jax")
        with self.context():
            if self.platforms:
                return self.jitted().trace(*self.args()).lower(lowering_platforms=self.platforms)
            return self.jitted().lower(*self.args())


PROGRAMS: list[Program] = []


def program(category: str, args: ArgMaker, *, jit_options=None, x64=False,
            num_devices=1, name: str | None = None, platforms: tuple[str, ...] | None = None):
    """Decorator that registers a function; its name becomes the program name."""

    def register(fn):
        prog_name = name or fn.__name__
        if any(p.name == prog_name for p in PROGRAMS):
            raise ValueError(f"duplicate program name {prog_name!r}")
        PROGRAMS.append(Program(prog_name, category, fn, args, jit_options, x64, num_devices, platforms))
        return fn

    return register


def by_name(name: str) -> Program:
    for p in PROGRAMS:
        if p.name == name:
            return p
    raise KeyError(name)


# --------------------------------------------------------------------------
# Argument helpers (rng first, then shape).

def normal(r, *shape, dtype=np.float32):
    return r.standard_normal(shape).astype(dtype)


def uniform(r, *shape, lo=0.0, hi=1.0, dtype=np.float32):
    return r.uniform(lo, hi, shape).astype(dtype)


def ints(r, lo, hi, *shape, dtype=np.int32):
    return r.integers(lo, hi, shape).astype(dtype)


def bools(r, *shape):
    return r.random(shape) < 0.5


def cplx(r, *shape, dtype=np.complex64):
    return (r.standard_normal(shape) + 1j * r.standard_normal(shape)).astype(dtype)


def spd(r, n, dtype=np.float32):
    """A symmetric positive definite matrix."""
    a = r.standard_normal((n, n))
    return (a @ a.T + n * np.eye(n)).astype(dtype)


def mlp_params(r, sizes, dtype=np.float32):
    return [{"w": normal(r, m, n, dtype=dtype) / np.sqrt(m).astype(dtype),
             "b": np.zeros((n,), dtype)} for m, n in zip(sizes[:-1], sizes[1:])]


# ==========================================================================
# MLPs and their derivatives.

def _mlp_apply(params, x):
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def _mlp_loss(params, x, y):
    logits = _mlp_apply(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * y, axis=-1))


def _mlp_args(r):
    x = normal(r, 16, 32)
    y = np.eye(10, dtype=np.float32)[r.integers(0, 10, 16)]
    return mlp_params(r, [32, 64, 10]), x, y


@program("mlp", lambda r: (normal(r, 8, 32), normal(r, 32, 64), normal(r, 64),
                           normal(r, 64, 10), normal(r, 10)))
def mlp_forward(x, w1, b1, w2, b2):
    h = jnp.tanh(x @ w1 + b1)
    return jax.nn.softmax(h @ w2 + b2)


@program("mlp", _mlp_args)
def mlp_grad(params, x, y):
    return jax.grad(_mlp_loss)(params, x, y)


@program("mlp", _mlp_args)
def mlp_value_and_grad(params, x, y):
    return jax.value_and_grad(_mlp_loss)(params, x, y)


@program("mlp", _mlp_args)
def mlp_sgd_step(params, x, y):
    loss, grads = jax.value_and_grad(_mlp_loss)(params, x, y)
    new_params = jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)
    return new_params, loss


@program("mlp", lambda r: (mlp_params(r, [16, 32, 4], dtype=jnp.bfloat16),
                           normal(r, 8, 16, dtype=jnp.bfloat16)))
def mlp_bf16_mixed_precision(params, x):
    for layer in params:
        x = lax.dot_general(x, layer["w"], (((1,), (0,)), ((), ())),
                            preferred_element_type=jnp.float32)
        x = jax.nn.gelu(x + layer["b"].astype(jnp.float32)).astype(jnp.bfloat16)
    return x


@program("mlp", lambda r: (normal(r, 6), normal(r, 20, 6), uniform(r, 20)))
def logistic_regression_hessian(w, x, y):
    def loss(w):
        p = jax.nn.sigmoid(x @ w)
        return -jnp.mean(y * jnp.log(p) + (1 - y) * jnp.log1p(-p))
    return jax.hessian(loss)(w)


@program("mlp", lambda r: (normal(r, 5), normal(r, 5), normal(r, 5, 5)))
def jvp_and_jacfwd(x, t, m):
    f = lambda v: jnp.sin(m @ v) * v
    y, y_dot = jax.jvp(f, (x,), (t,))
    return y, y_dot, jax.jacfwd(f)(x)


@jax.custom_vjp
def _clip_gradient(x):
    return x


def _clip_gradient_fwd(x):
    return x, None


def _clip_gradient_bwd(_, g):
    return (jnp.clip(g, -0.1, 0.1),)


_clip_gradient.defvjp(_clip_gradient_fwd, _clip_gradient_bwd)


@program("mlp", lambda r: (normal(r, 4, 8), normal(r, 8, 8)))
def custom_vjp_grad(x, w):
    return jax.grad(lambda w: jnp.sum(_clip_gradient(jnp.tanh(x @ w)) ** 2))(w)


# ==========================================================================
# Convolutions.

def _conv(lhs, rhs, strides=(1, 1), padding="SAME", dims=("NHWC", "HWIO", "NHWC"), **kw):
    return lax.conv_general_dilated(lhs, rhs, strides, padding, dimension_numbers=dims, **kw)


@program("conv", lambda r: (normal(r, 2, 16, 16, 3), normal(r, 3, 3, 3, 8)))
def conv2d_nhwc_strided(x, k):
    return _conv(x, k, strides=(2, 2), padding="SAME")


@program("conv", lambda r: (normal(r, 2, 3, 12, 12), normal(r, 8, 3, 5, 5)))
def conv2d_nchw_explicit_padding(x, k):
    return _conv(x, k, padding=((2, 1), (0, 3)), dims=("NCHW", "OIHW", "NCHW"))


@program("conv", lambda r: (normal(r, 1, 20, 20, 4), normal(r, 3, 3, 4, 4)))
def conv2d_rhs_dilation(x, k):
    return _conv(x, k, padding="VALID", rhs_dilation=(2, 3))


@program("conv", lambda r: (normal(r, 1, 7, 7, 4), normal(r, 3, 3, 4, 2)))
def conv2d_lhs_dilation(x, k):
    # Fractionally strided ("transposed") convolution.
    return _conv(x, k, padding=((2, 2), (2, 2)), lhs_dilation=(2, 2))


@program("conv", lambda r: (normal(r, 1, 8, 8, 4), normal(r, 3, 3, 4, 2)))
def conv2d_transpose(x, k):
    return lax.conv_transpose(x, k, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))


@program("conv", lambda r: (normal(r, 2, 10, 10, 6), normal(r, 3, 3, 1, 6)))
def conv2d_depthwise(x, k):
    return _conv(x, k, feature_group_count=6)


def _grouped_conv(x, k):
    return _conv(x, k, padding="VALID", feature_group_count=2)


@program("conv", lambda r: (normal(r, 4, 8, 8, 4), normal(r, 3, 3, 2, 6)))
def conv2d_grouped_weight_grad(x, k):
    # The kernel gradient of a grouped convolution uses batch_group_count.
    return jax.grad(lambda k: jnp.sum(_grouped_conv(x, k) ** 2))(k)


@program("conv", lambda r: (normal(r, 2, 9, 9, 3), normal(r, 3, 3, 3, 5)))
def conv2d_input_grad(x, k):
    return jax.grad(lambda x: jnp.sum(jnp.sin(_conv(x, k, strides=(2, 2)))))(x)


@program("conv", lambda r: (normal(r, 2, 3, 32), normal(r, 4, 3, 5)))
def conv1d_ncw(x, k):
    return lax.conv_general_dilated(x, k, (1,), "SAME", dimension_numbers=("NCH", "OIH", "NCH"))


@program("conv", lambda r: (normal(r, 1, 6, 8, 8, 2), normal(r, 3, 3, 3, 2, 4)))
def conv3d_ndhwc(x, k):
    return _conv(x, k, strides=(1, 2, 2), dims=("NDHWC", "DHWIO", "NDHWC"))


@program("conv", lambda r: (ints(r, -128, 127, 1, 8, 8, 3, dtype=np.int8),
                            ints(r, -128, 127, 3, 3, 3, 4, dtype=np.int8)))
def conv2d_int8_to_int32(x, k):
    return _conv(x, k, preferred_element_type=jnp.int32)


@program("conv", lambda r: (normal(r, 4, 6, 6, 2, dtype=jnp.bfloat16),
                            normal(r, 2, 2, 2, 4, dtype=jnp.bfloat16)))
def conv2d_bf16_nhwc_ohwi(x, k):
    k = jnp.transpose(k, (3, 0, 1, 2))
    return _conv(x, k, padding="VALID", dims=("NHWC", "OHWI", "NHWC"),
                 precision=lax.Precision.HIGHEST)


@program("conv", lambda r: (normal(r, 64), normal(r, 5)))
def convolve_1d_numpy(x, k):
    return jnp.convolve(x, k, mode="same")


def _cnn_params(r):
    return {"c1": normal(r, 3, 3, 1, 4) * 0.3, "c2": normal(r, 3, 3, 4, 8) * 0.3,
            "dense": normal(r, 8 * 2 * 2, 10) * 0.1}


def _cnn_loss(params, x, labels):
    h = jax.nn.relu(_conv(x, params["c1"]))
    h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    h = jax.nn.relu(_conv(h, params["c2"], strides=(2, 2)))
    logits = h.reshape(h.shape[0], -1) @ params["dense"]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=1))


@program("conv", lambda r: (_cnn_params(r), normal(r, 4, 8, 8, 1), ints(r, 0, 10, 4)))
def cnn_train_grad(params, x, labels):
    return jax.value_and_grad(_cnn_loss)(params, x, labels)


# ==========================================================================
# Pooling (reduce_window) and its gradients (select_and_scatter).

def _max_pool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")


def _avg_pool(x):
    s = lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1),
                          ((0, 0), (1, 1), (1, 1), (0, 0)))
    return s / 4.0


@program("pool", lambda r: (normal(r, 2, 9, 9, 3),))
def max_pool2d(x):
    return _max_pool(x)


@program("pool", lambda r: (normal(r, 2, 8, 8, 3),))
def avg_pool2d_padded(x):
    return _avg_pool(x)


@program("pool", lambda r: (normal(r, 2, 9, 9, 3),))
def max_pool2d_grad(x):
    return jax.grad(lambda x: jnp.sum(_max_pool(x) ** 2))(x)


@program("pool", lambda r: (normal(r, 2, 8, 8, 3),))
def avg_pool2d_grad(x):
    return jax.grad(lambda x: jnp.sum(jnp.cos(_avg_pool(x))))(x)


@program("pool", lambda r: (normal(r, 12, 12),))
def reduce_window_dilated(x):
    return lax.reduce_window(x, 0.0, lax.add, (3, 2), (1, 2), ((1, 1), (0, 1)),
                             base_dilation=(2, 1), window_dilation=(1, 2))


@program("pool", lambda r: (normal(r, 10, 6), ints(r, 0, 100, 10, 6)))
def reduce_window_variadic_argmax(x, i):
    # Two-operand reduce_window: a windowed max carrying its index along.
    def reducer(a, b):
        take_a = a[0] >= b[0]
        return lax.select(take_a, a[0], b[0]), lax.select(take_a, a[1], b[1])
    return lax.reduce_window((x, i), (-jnp.inf, np.int32(-1)), reducer, (3, 1), (1, 1), "VALID")


# ==========================================================================
# Normalisation, softmax and attention.

@program("attention", lambda r: (normal(r, 4, 50),))
def softmax(x):
    return jax.nn.softmax(x, axis=-1)


@program("attention", lambda r: (normal(r, 3, 7, 11),))
def log_softmax_and_logsumexp(x):
    return jax.nn.log_softmax(x, axis=1), jax.nn.logsumexp(x, axis=(0, 2))


@program("attention", lambda r: (normal(r, 8, 64), normal(r, 64), normal(r, 64)))
def layer_norm(x, gamma, beta):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.var(x, axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * gamma + beta


@program("attention", lambda r: (normal(r, 8, 64, dtype=jnp.bfloat16), normal(r, 64)))
def rms_norm_bf16(x, scale):
    xf = x.astype(jnp.float32)
    norm = xf * lax.rsqrt(jnp.mean(xf * xf, axis=-1, keepdims=True) + 1e-6)
    return (norm * scale).astype(jnp.bfloat16)


@program("attention", lambda r: (normal(r, 4, 6, 5, 8), normal(r, 8), normal(r, 8)))
def batch_norm_train(x, gamma, beta):
    mean = jnp.mean(x, axis=(0, 1, 2))
    var = jnp.mean((x - mean) ** 2, axis=(0, 1, 2))
    return gamma * (x - mean) / jnp.sqrt(var + 1e-5) + beta, mean, var


def _attention(q, k, v, causal):
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(q.shape[-1]).astype(q.dtype)
    if causal:
        mask = jnp.tril(jnp.ones((q.shape[1], k.shape[1]), bool))
        s = jnp.where(mask, s, -1e9)
    return jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, axis=-1), v)


def _qkv(r, b=2, t=8, h=4, d=16):
    return normal(r, b, t, h, d), normal(r, b, t, h, d), normal(r, b, t, h, d)


@program("attention", lambda r: (normal(r, 10, 32), normal(r, 12, 32), normal(r, 12, 16)))
def attention_single_head(q, k, v):
    return jax.nn.softmax(q @ k.T / np.float32(np.sqrt(32))) @ v


@program("attention", _qkv)
def attention_causal_multi_head(q, k, v):
    return _attention(q, k, v, causal=True)


@program("attention", _qkv)
def attention_grad(q, k, v):
    return jax.grad(lambda q, k, v: jnp.sum(_attention(q, k, v, True) ** 2), argnums=(0, 1, 2))(q, k, v)


@program("attention", lambda r: _qkv(r, t=6, h=2, d=8))
def dot_product_attention_nn(q, k, v):
    return jax.nn.dot_product_attention(q, k, v, is_causal=True)


def _block_params(r, d=32):
    return {"wq": normal(r, d, d) * 0.1, "wk": normal(r, d, d) * 0.1, "wv": normal(r, d, d) * 0.1,
            "wo": normal(r, d, d) * 0.1, "w1": normal(r, d, 4 * d) * 0.1,
            "w2": normal(r, 4 * d, d) * 0.1, "g1": np.ones(d, np.float32), "g2": np.ones(d, np.float32)}


def _transformer_block(p, x, heads=4):
    def ln(x, g):
        return g * (x - x.mean(-1, keepdims=True)) * lax.rsqrt(x.var(-1, keepdims=True) + 1e-6)
    b, t, d = x.shape
    h = ln(x, p["g1"])
    split = lambda y: y.reshape(b, t, heads, d // heads)
    a = _attention(split(h @ p["wq"]), split(h @ p["wk"]), split(h @ p["wv"]), causal=True)
    x = x + a.reshape(b, t, d) @ p["wo"]
    return x + jax.nn.gelu(ln(x, p["g2"]) @ p["w1"]) @ p["w2"]


@program("attention", lambda r: (_block_params(r), normal(r, 2, 8, 32)))
def transformer_block(params, x):
    return _transformer_block(params, x)


# ==========================================================================
# Control flow.

@program("control_flow", lambda r: (normal(r, 10, 4),))
def scan_cumulative(xs):
    def step(carry, x):
        carry = carry * 0.9 + x
        return carry, jnp.sum(carry)
    return lax.scan(step, jnp.zeros(4, xs.dtype), xs)


@program("control_flow", lambda r: (normal(r, 12, 3, 5), normal(r, 5, 8) * 0.3,
                                    normal(r, 8, 8) * 0.3))
def scan_rnn_grad(xs, wx, wh):
    def loss(wx, wh):
        def cell(h, x):
            h = jnp.tanh(x @ wx + h @ wh)
            return h, h
        _, hs = lax.scan(cell, jnp.zeros((xs.shape[1], 8)), xs)
        return jnp.sum(hs ** 2)
    return jax.grad(loss, argnums=(0, 1))(wx, wh)


@program("control_flow", lambda r: (normal(r, 9, 3),))
def scan_reverse_unrolled(xs):
    return lax.scan(lambda c, x: (c + x, c * x), jnp.ones(3), xs, reverse=True, unroll=2)


@program("control_flow", lambda r: (normal(r, 4, 4),))
def fori_loop_static(x):
    return lax.fori_loop(0, 5, lambda i, acc: acc @ x * 0.5 + i.astype(x.dtype), jnp.eye(4))


@program("control_flow", lambda r: (uniform(r, lo=1.0, hi=100.0),))
def while_loop_newton_sqrt(a):
    # Data-dependent trip count: iterate until converged.
    def cond(state):
        x, prev, it = state
        return (jnp.abs(x - prev) > 1e-6) & (it < 100)

    def body(state):
        x, _, it = state
        return 0.5 * (x + a / x), x, it + 1
    return lax.while_loop(cond, body, (a, jnp.zeros_like(a), 0))


@program("control_flow", lambda r: (ints(r, 1, 50, 6),))
def while_loop_collatz_vmapped(n):
    def steps(n):
        def body(s):
            n, k = s
            return jnp.where(n % 2 == 0, n // 2, 3 * n + 1), k + 1
        return lax.while_loop(lambda s: s[0] != 1, body, (n, 0))[1]
    return jax.vmap(steps)(n)


@program("control_flow", lambda r: (normal(r, 5, 3),))
def nested_loops(xs):
    def outer(carry, x):
        inner = lax.fori_loop(0, 3, lambda j, c: c + x * j, carry)
        return lax.while_loop(lambda c: jnp.sum(c) > 10.0, lambda c: c * 0.5, inner), jnp.max(inner)
    return lax.scan(outer, jnp.zeros(3), xs)


@program("control_flow", lambda r: (normal(r), normal(r, 4)))
def cond_simple(p, x):
    return lax.cond(p > 0, lambda x: jnp.sin(x), lambda x: jnp.cos(x) * 2.0, x)


@program("control_flow", lambda r: (ints(r, 0, 3), normal(r, 3, 3)))
def switch_four_branches(i, x):
    return lax.switch(i, [lambda x: x + 1.0, lambda x: x @ x, lambda x: jnp.exp(x),
                          lambda x: -x], x)


@program("control_flow", lambda r: (normal(r, 8), normal(r, 8, 2)))
def cond_inside_scan(ps, xs):
    def step(acc, inp):
        p, x = inp
        acc = lax.cond(p > 0, lambda a: a + x, lambda a: a * x, acc)
        return acc, jnp.sum(acc)
    return lax.scan(step, jnp.ones(2), (ps, xs))


@program("control_flow", lambda r: (normal(r, 6), normal(r, 6)))
def vmapped_cond(p, x):
    return jax.vmap(lambda p, x: lax.cond(p > 0, jnp.sin, jnp.cos, x))(p, x)


@program("control_flow", lambda r: (normal(r, 6, 2), ints(r, 0, 5, dtype=np.int32)))
def while_loop_mixed_carry(x, n):
    def body(s):
        i, acc, flag = s
        return i + 1, acc + x[i % x.shape[0]], jnp.logical_not(flag)
    return lax.while_loop(lambda s: s[0] < n, body, (np.int32(0), jnp.zeros(2), True))


# ==========================================================================
# Gather and scatter.

@program("gather_scatter", lambda r: (normal(r, 10, 4), ints(r, 0, 10, 6)))
def gather_rows(x, idx):
    return x[idx]


@program("gather_scatter", lambda r: (normal(r, 5, 6, 7), ints(r, 0, 5, 3), ints(r, 0, 7, 3)))
def gather_fancy_2d(x, i, j):
    return x[i, :, j], x[:, i], x[1:, 2, ::-1]


@program("gather_scatter", lambda r: (normal(r, 8, 3), np.array([1, 3, 1, 7, 3], np.int32),
                                      normal(r, 5, 3)))
def scatter_set_duplicates(x, idx, u):
    return x.at[idx].set(u)


@program("gather_scatter", lambda r: (normal(r, 8, 3), np.array([1, 3, 1, 7, 3], np.int32),
                                      normal(r, 5, 3)))
def scatter_add_duplicates(x, idx, u):
    return x.at[idx].add(u)


@program("gather_scatter", lambda r: (normal(r, 8), np.array([0, 2, 2, 5], np.int32), normal(r, 4)))
def scatter_mul_min_max(x, idx, u):
    return x.at[idx].mul(u), x.at[idx].min(u), x.at[idx].max(u)


@program("gather_scatter", lambda r: (ints(r, -50, 50, 6, 4), ints(r, 0, 6, 5), ints(r, 0, 4, 5),
                                      ints(r, -50, 50, 5)))
def scatter_int_2d_indices(x, i, j, u):
    return x.at[i, j].add(u, mode="drop"), x.at[i, j].get(mode="fill", fill_value=-1)


@program("gather_scatter", lambda r: (normal(r, 4, 10, 3), ints(r, 0, 10, 4, 2)))
def vmap_gather(x, idx):
    # Batched indexing: gather with operand/start-indices batching dims.
    return jax.vmap(lambda x, i: x[i])(x, idx)


@program("gather_scatter", lambda r: (normal(r, 4, 10), ints(r, 0, 10, 4, 3), normal(r, 4, 3)))
def vmap_scatter_add(x, idx, u):
    return jax.vmap(lambda x, i, u: x.at[i].add(u))(x, idx, u)


@program("gather_scatter", lambda r: (normal(r, 5, 8), ints(r, 0, 8, 5, 3)))
def take_along_axis(x, idx):
    return jnp.take_along_axis(x, idx, axis=1)


@program("gather_scatter", lambda r: (normal(r, 20, 8), ints(r, 0, 20, 4, 6)))
def embedding_lookup_grad(table, tokens):
    return jax.grad(lambda t: jnp.sum(jnp.tanh(t[tokens])))(table)


@program("gather_scatter", lambda r: (normal(r, 12, 3), ints(r, 0, 4, 12)))
def segment_sum_and_max(data, seg):
    return (jax.ops.segment_sum(data, seg, num_segments=4),
            jax.ops.segment_max(data, seg, num_segments=4))


@program("gather_scatter", lambda r: (normal(r, 7, 5), ints(r, 0, 7), ints(r, 0, 5)))
def dynamic_scalar_index(x, i, j):
    return x[i], x[i, j], x[:, j]


# ==========================================================================
# Sorting and scans.

@program("sort_scan", lambda r: (normal(r, 33),))
def sort_1d(x):
    return jnp.sort(x)


@program("sort_scan", lambda r: (normal(r, 4, 9),))
def argsort_axis0_descending(x):
    return jnp.argsort(x, axis=0, descending=True), jnp.argsort(x, axis=1, stable=True)


@program("sort_scan", lambda r: (ints(r, 0, 3, 10), normal(r, 10), ints(r, 0, 100, 10)))
def sort_multi_operand(k1, k2, payload):
    return lax.sort((k1, k2, payload), num_keys=2)


@program("sort_scan", lambda r: (normal(r, 3, 20),))
def top_k(x):
    return lax.top_k(x, 5)


@program("sort_scan", lambda r: (normal(r, 6, 5), ints(r, -5, 5, 6, 5)))
def cumulative_ops(x, i):
    return (jnp.cumsum(x, axis=0), jnp.cumprod(x, axis=1), lax.cummax(x, axis=1),
            lax.cummin(i, axis=0), jnp.cumsum(i, axis=1))


@program("sort_scan", lambda r: (normal(r, 6, 5), ints(r, -5, 5, 6, 5)), platforms=("cuda",))
def cumulative_ops_cuda(x, i):
    # For CUDA, JAX writes a forward cumsum as chlo.scan, the rest as
    # reduce_window prefix scans.
    return (jnp.cumsum(x, axis=0), jnp.cumsum(i, axis=1), lax.cumsum(x, axis=1, reverse=True),
            lax.cummax(x, axis=0), lax.cumlogsumexp(x, axis=1, reverse=True))


@program("sort_scan", lambda r: (normal(r, 16), normal(r, 16)))
def associative_scan_linear_recurrence(a, b):
    def combine(left, right):
        a1, b1 = left
        a2, b2 = right
        return a1 * a2, a2 * b1 + b2
    return lax.associative_scan(combine, (a, b))


@program("sort_scan", lambda r: (normal(r, 20), normal(r, 5)))
def searchsorted_and_unique(x, q):
    s = jnp.sort(x)
    return jnp.searchsorted(s, q), jnp.unique(jnp.round(x), size=8, fill_value=0.0)


# ==========================================================================
# Random numbers.

@program("random", lambda r: (np.int32(r.integers(0, 1000)),))
def random_threefry(seed):
    key = jax.random.key(seed)
    k1, k2, k3 = jax.random.split(key, 3)
    return (jax.random.uniform(k1, (4, 3)), jax.random.normal(k2, (5,)),
            jax.random.randint(jax.random.fold_in(k3, 7), (6,), 0, 10))


@program("random", lambda r: (np.int32(r.integers(0, 1000)),))
def random_rbg(seed):
    key = jax.random.key(seed, impl="rbg")
    k1, k2 = jax.random.split(key)
    return jax.random.uniform(k1, (8,)), jax.random.normal(k2, (2, 3))


@program("random", lambda r: (ints(r, 0, 2**31, 4, dtype=np.uint32),))
def random_unsafe_rbg(key_data):
    key = jax.random.wrap_key_data(key_data, impl="unsafe_rbg")
    return jax.random.bernoulli(key, 0.3, (10,)), jax.random.key_data(jax.random.split(key)[0])


@program("random", lambda r: (np.int32(r.integers(0, 1000)), normal(r, 4, 6)))
def random_bernoulli_categorical(seed, logits):
    k1, k2, k3 = jax.random.split(jax.random.key(seed), 3)
    return (jax.random.bernoulli(k1, 0.25, (3, 3)), jax.random.categorical(k2, logits),
            jax.random.permutation(k3, 7))


@program("random", lambda r: (np.int32(r.integers(0, 1000)), normal(r, 8, 16)))
def dropout(seed, x):
    keep = jax.random.bernoulli(jax.random.key(seed), 0.9, x.shape)
    return jnp.where(keep, x / 0.9, 0.0)


@program("random", lambda r: (ints(r, 0, 2**31, 2, dtype=np.uint32),))
def random_raw_prng_key(key):
    # Legacy uint32[2] keys and random bits of several widths.
    return (jax.random.bits(key, (4,), jnp.uint8), jax.random.bits(key, (2,), jnp.uint32),
            jax.random.gamma(key, 2.0, (3,)))


# ==========================================================================
# Element types.

@program("dtypes", lambda r: (normal(r, 4, 8, dtype=jnp.bfloat16), normal(r, 8, 4, dtype=jnp.bfloat16)))
def bf16_ops(a, b):
    c = a @ b
    return jnp.exp(c) + jnp.sqrt(jnp.abs(c)), c.astype(jnp.float32).sum(), jnp.max(a, axis=0)


@program("dtypes", lambda r: (normal(r, 16, dtype=np.float16), normal(r, 16, dtype=np.float16)))
def f16_ops(a, b):
    return jnp.tanh(a) * b - jnp.float16(0.5), jnp.mean(a), (a > b).astype(jnp.float16)


@program("dtypes", lambda r: (normal(r, 6, dtype=np.float64), normal(r, 6, 6, dtype=np.float64)), x64=True)
def f64_ops(x, m):
    return m @ x, jnp.log(jnp.abs(x) + 1e-300), jnp.float64(1.0) / 3.0 + x


@program("dtypes", lambda r: (ints(r, -128, 127, 12, dtype=np.int8), ints(r, 0, 255, 12, dtype=np.uint8)))
def int8_uint8_ops(a, b):
    return (a + a, b * b, a.astype(jnp.uint8) ^ b, jnp.maximum(a, 3),
            b.astype(jnp.int32).sum(), (b // 3).astype(jnp.int8))


@program("dtypes", lambda r: (ints(r, 0, 2**32, 8, dtype=np.uint32), ints(r, 0, 32, 8, dtype=np.uint32)))
def uint32_ops(a, s):
    return (a >> s) | (a << (32 - s)), a // np.uint32(7), a % np.uint32(7), a.astype(jnp.float32), a > np.uint32(2**31)


@program("dtypes", lambda r: (ints(r, -2**40, 2**40, 5, dtype=np.int64), ints(r, 1, 100, 5, dtype=np.int64)),
         x64=True)
def int64_ops(a, b):
    return a * b, a // b, a.astype(jnp.float64), jnp.sum(a), a.astype(jnp.int32)


@program("dtypes", lambda r: (bools(r, 10), bools(r, 10), normal(r, 10)))
def bool_ops(a, b, x):
    return (a & ~b) | (a ^ b), jnp.any(a), jnp.all(b), jnp.where(a, x, -x), a.astype(jnp.int32) + b


@program("dtypes", lambda r: (cplx(r, 4, 4), cplx(r, 4)))
def complex64_ops(m, v):
    y = m @ v
    return (y, jnp.abs(y), jnp.angle(y), jnp.conj(y) * 1j, jnp.real(y) + jnp.imag(y),
            jnp.exp(v), lax.complex(jnp.real(v), 2 * jnp.imag(v)))


@program("dtypes", lambda r: (cplx(r, 3, 3, dtype=np.complex128),), x64=True)
def complex128_ops(m):
    return m @ m.conj().T, jnp.sqrt(m), jnp.sum(m, axis=0), jnp.abs(m).astype(jnp.float32)


@program("dtypes", lambda r: (normal(r, 8),))
def convert_chain(x):
    return (x.astype(jnp.bfloat16).astype(jnp.float16), x.astype(jnp.int32).astype(jnp.uint8),
            x.astype(jnp.bool_), (x > 0).astype(jnp.float32),
            x.astype(jnp.float8_e4m3fn).astype(jnp.float32),
            x.astype(jnp.float8_e5m2))


# ==========================================================================
# FFT.

@program("fft", lambda r: (cplx(r, 4, 16),))
def fft_ifft(x):
    return jnp.fft.fft(x), jnp.fft.ifft(x, axis=0)


@program("fft", lambda r: (normal(r, 3, 32),))
def rfft_irfft(x):
    spec = jnp.fft.rfft(x)
    return spec, jnp.fft.irfft(spec * 0.5, n=32)


@program("fft", lambda r: (normal(r, 8, 8),))
def fft2_real_input(x):
    return jnp.fft.fft2(x), jnp.fft.fftn(x.astype(jnp.complex64), axes=(0,))


@program("fft", lambda r: (normal(r, 2, 6, 10),))
def rfft2_roundtrip(x):
    return jnp.fft.irfft2(jnp.fft.rfft2(x), s=(6, 10))


# ==========================================================================
# Shape manipulation.

@program("shape", lambda r: (normal(r, 5, 6),))
def pad_negative_interior(x):
    return (lax.pad(x, 0.0, ((1, -2, 1), (-1, 3, 2))),
            jnp.pad(x, ((2, 0), (1, 1)), mode="reflect"),
            jnp.pad(x, 1, mode="edge"))


@program("shape", lambda r: (normal(r, 2, 3), normal(r, 4, 3), normal(r, 6)))
def concatenate_stack(a, b, c):
    return jnp.concatenate([a, b, a], axis=0), jnp.stack([c, c * 2], axis=1), jnp.hstack([c, c])


@program("shape", lambda r: (normal(r, 3, 4, 5),))
def flip_reverse(x):
    return jnp.flip(x, axis=(0, 2)), x[::-1], jnp.rot90(x[0])


@program("shape", lambda r: (normal(r, 10, 12),))
def strided_slices(x):
    return x[::2, 1::3], x[1:9:3, ::-2], x[-3:, :4]


@program("shape", lambda r: (normal(r, 8, 8), normal(r, 2, 3), ints(r, 0, 6), ints(r, 0, 6)))
def dynamic_slice_update(x, u, i, j):
    s = lax.dynamic_slice(x, (i, j), (3, 2))
    y = lax.dynamic_update_slice(x, u, (j, i))
    return s, y, lax.dynamic_slice_in_dim(x, i, 4, axis=1)


@program("shape", lambda r: (normal(r, 2, 3, 4),))
def reshape_transpose(x):
    return (x.reshape(6, 4).T, jnp.transpose(x, (2, 0, 1)), x.reshape(-1),
            jnp.expand_dims(x, (0, 3)), jnp.squeeze(x[:, :1, :], axis=1), jnp.moveaxis(x, 0, -1))


@program("shape", lambda r: (normal(r, 3, 1), normal(r, 4), normal(r)))
def broadcasting(a, b, s):
    return a + b, a * s, jnp.broadcast_to(b, (2, 3, 4)), jnp.outer(a[:, 0], b)


@program("shape", lambda r: ())
def iota_arange():
    return (jnp.arange(10), jnp.arange(2.0, 5.0, 0.5), lax.broadcasted_iota(jnp.int32, (3, 4), 1),
            jnp.linspace(0, 1, 7), jnp.eye(3, 4, k=1), jnp.tri(4, dtype=jnp.int8))


@program("shape", lambda r: (normal(r, 3, 4),))
def roll_tile_repeat(x):
    return jnp.roll(x, 2, axis=1), jnp.tile(x, (2, 1)), jnp.repeat(x, 2, axis=0), jnp.triu(x)


@program("shape", lambda r: (normal(r, 2, 8, 8, 3),))
def image_resize(x):
    return jax.image.resize(x, (2, 12, 5, 3), "linear"), jax.image.resize(x, (2, 4, 4, 3), "nearest")


# ==========================================================================
# Composites, rematerialisation, optimisation barriers.

@functools.partial(lax.composite, name="hlograph.gelu_tanh")
def _composite_gelu(x, *, approximate=True):
    return jax.nn.gelu(x, approximate=approximate)


@functools.partial(lax.composite, name="hlograph.scaled_add", version=2)
def _composite_scaled_add(x, y, *, scale=1.0, axes=(0,), label="sum", mask=None):
    del axes, label, mask
    return x * scale + y, jnp.sum(x)


@program("composite", lambda r: (normal(r, 4, 8),))
def composite_gelu(x):
    return _composite_gelu(x, approximate=True) + _composite_gelu(x * 2, approximate=True)


@program("composite", lambda r: (normal(r, 5), normal(r, 5)))
def composite_attributes(x, y):
    mask = np.array([True, False, True])
    return _composite_scaled_add(x, y, scale=0.5, axes=(0, 1), label="demo",
                                 mask=mask)


def _remat_mlp_loss(ws, x, policy=None):
    layer = jax.checkpoint(lambda w, h: jnp.sin(h @ w), policy=policy)
    for w in ws:
        x = layer(w, x)
    return jnp.sum(x)


@program("remat", lambda r: ([normal(r, 8, 8) * 0.3 for _ in range(3)], normal(r, 4, 8)))
def checkpoint_mlp_grad(ws, x):
    return jax.grad(_remat_mlp_loss)(ws, x)


@program("remat", lambda r: ([normal(r, 8, 8) * 0.3 for _ in range(2)], normal(r, 4, 8)))
def checkpoint_policy_dots_grad(ws, x):
    policy = jax.checkpoint_policies.checkpoint_dots
    return jax.grad(functools.partial(_remat_mlp_loss, policy=policy))(ws, x)


@program("remat", lambda r: (normal(r, 4), normal(r, 4)))
def optimization_barrier(x, y):
    a, b = lax.optimization_barrier((x * 2, y + 1))
    return a * b


# ==========================================================================
# Elementwise numerics.

@program("integer", lambda r: (ints(r, -1000, 1000, 8), ints(r, 0, 31, 8), ints(r, 0, 2**31, 8, dtype=np.uint32)))
def integer_bitwise(a, s, u):
    return (a << s, a >> s, lax.shift_right_logical(a, s), a & 0xFF, a | s, a ^ s, ~a,
            lax.population_count(u), lax.clz(u), lax.clz(a), lax.population_count(a))


@program("integer", lambda r: (ints(r, -20, 20, 10), np.array([3, -3, 7, -7, 2, -2, 5, -5, 1, -1], np.int32)))
def integer_div_rem_negative(a, b):
    return a // b, a % b, lax.div(a, b), lax.rem(a, b), jnp.fmod(a, b), jnp.abs(a), -a


@program("elementwise", lambda r: (normal(r, 10), normal(r, 10), ints(r, -5, 5, 10)))
def compare_select_clamp(x, y, i):
    return (x < y, x == y, x != y, x >= y, i <= 0, i > -2, jnp.where(x > y, x, y),
            lax.clamp(-0.5, x, 0.5), jnp.clip(i, -2, 3),
            lax.select_n(jnp.clip(i, 0, 2), x, y, x * y),
            jnp.isnan(x / y), x.astype(jnp.float32) == x)


@program("elementwise", lambda r: (uniform(r, 12, lo=-0.9, hi=0.9), uniform(r, 12, lo=0.1, hi=5.0)))
def special_functions(u, p):
    return (lax.erf(u), lax.erfc(u), lax.erf_inv(u), lax.lgamma(p), lax.digamma(p),
            jsp.special.gammaln(p), jsp.special.ndtri(jnp.abs(u) * 0.5 + 0.25),
            lax.igamma(p, p * 0.5), lax.bessel_i1e(p), jsp.special.zeta(p + 1.0, 2.0))


@program("elementwise", lambda r: (normal(r, 12), uniform(r, 12, lo=0.1, hi=3.0)))
def transcendental_functions(x, p):
    return (jnp.tan(x), jnp.sinh(x), jnp.cosh(x), jnp.arcsinh(x), jnp.arctan2(x, p), jax.nn.sigmoid(x),
            lax.logistic(x), jnp.expm1(x), jnp.log1p(p), jnp.cbrt(x), jnp.round(x), lax.round(x),
            jnp.sign(x), jnp.isfinite(x / (x - x)), jnp.nextafter(x, p), jnp.arccos(jnp.tanh(x)),
            jnp.floor(x), jnp.ceil(x), lax.rsqrt(p), x ** 3, p ** x, lax.exp2(x), jnp.log10(p))


@program("elementwise", lambda r: (normal(r, 8),))
def reduce_precision(x):
    return lax.reduce_precision(x, exponent_bits=5, mantissa_bits=10), lax.reduce_precision(x, 8, 7)


@program("elementwise", lambda r: (normal(r, 6), ints(r, -100, 100, 3, dtype=np.int32)))
def bitcast_convert(x, i):
    return (lax.bitcast_convert_type(x, jnp.int32), lax.bitcast_convert_type(x, jnp.uint8),
            lax.bitcast_convert_type(i, jnp.float32),
            lax.bitcast_convert_type(x.reshape(3, 2).astype(jnp.float16), jnp.uint32))


@program("elementwise", lambda r: (normal(r, 3, 5), normal(r, 3, 5)))
def float_arith_misc(x, y):
    return (jnp.remainder(x, y), jnp.fmod(x, y), x ** 2, lax.integer_pow(x, 5), jnp.hypot(x, y),
            jnp.maximum(x, y), jnp.minimum(x, y), jnp.copysign(x, y), jnp.logaddexp(x, y),
            jnp.nan_to_num(x / y), jnp.square(x), jnp.reciprocal(y))


# ==========================================================================
# Linear algebra and reductions.

@program("linalg", lambda r: (spd(r, 5), normal(r, 5, 3)))
def cholesky_solve_triangular(a, b):
    l = jnp.linalg.cholesky(a)
    y = jsp.linalg.solve_triangular(l, b, lower=True)
    return jsp.linalg.solve_triangular(l.T, y, lower=False)


@program("linalg", lambda r: (normal(r, 4, 4), spd(r, 4)))
def linalg_decompositions(a, s):
    q, r_ = jnp.linalg.qr(a)
    w, v = jnp.linalg.eigh(s)
    return q, r_, w, v, jnp.linalg.det(a), jnp.linalg.inv(s), jnp.linalg.svd(a, compute_uv=False)


@program("linalg", lambda r: (normal(r, 4, 3, 5, 6), normal(r, 4, 6, 7), normal(r, 4, 3, 7)))
def einsum_batch_dims(a, b, c):
    return (jnp.einsum("bhij,bjk->bhik", a, b), jnp.einsum("bhij,bhk->bijk", a, c),
            jnp.einsum("bhii->bh", a[..., :5]), jnp.einsum("bij,bij->b", b, b))


@program("linalg", lambda r: (normal(r, 8, 16), normal(r, 16, 4)))
def matmul_precision_variants(a, b):
    return (jnp.matmul(a, b, precision=lax.Precision.HIGHEST),
            jnp.dot(a, b, precision=(lax.Precision.HIGH, lax.Precision.DEFAULT)),
            jnp.dot(a.astype(jnp.bfloat16), b.astype(jnp.bfloat16), preferred_element_type=jnp.float32),
            lax.dot(a, b, precision=lax.DotAlgorithmPreset.F32_F32_F32))


@program("reduce", lambda r: (normal(r, 4, 5, 6), ints(r, -9, 9, 4, 5)))
def reductions_multi_axis(x, i):
    return (jnp.sum(x, axis=(0, 2)), jnp.max(x, axis=(1, 2)), jnp.min(x), jnp.prod(x, axis=1),
            jnp.mean(x, axis=(0, 1), keepdims=True), jnp.std(x, axis=2), jnp.any(i > 5, axis=0),
            jnp.all(i > -8), jnp.sum(i, axis=1), jnp.max(i), jnp.linalg.norm(x[0], axis=1))


@program("reduce", lambda r: (normal(r, 6, 7), ints(r, 0, 10, 9)))
def argmax_argmin(x, i):
    return jnp.argmax(x, axis=1), jnp.argmin(x, axis=0), jnp.argmax(i), jnp.nanargmax(x)


@program("reduce", lambda r: (normal(r, 5, 4), normal(r, 5, 4)))
def variadic_reduce(x, y):
    # A two-output lax.reduce computing (max of x, sum of y) in one op.
    return lax.reduce((x, y), (np.float32(-np.inf), np.float32(0)),
                      lambda a, b: (jnp.maximum(a[0], b[0]), a[1] + b[1]), (0,))


# ==========================================================================
# jax.nn.

@program("nn", lambda r: (normal(r, 4, 10), ints(r, 0, 10, 4)))
def nn_activations(x, labels):
    return (jax.nn.relu(x), jax.nn.relu6(x), jax.nn.gelu(x, approximate=False), jax.nn.silu(x),
            jax.nn.softplus(x), jax.nn.elu(x), jax.nn.leaky_relu(x, 0.1), jax.nn.hard_tanh(x),
            jax.nn.celu(x), jax.nn.selu(x), jax.nn.mish(x), jax.nn.glu(x),
            jax.nn.one_hot(labels, 10), jax.nn.standardize(x, axis=-1))


# ==========================================================================
# Signatures: donation, pytrees, zero-size and scalar-only.

@program("signature", lambda r: (normal(r, 16), normal(r, 16)),
         jit_options=lambda: {"donate_argnums": 0})
def donated_argument(state, update):
    return state + 0.1 * update, jnp.sum(update)


@program("signature", lambda r: (normal(r, 4, 4), normal(r, 4), normal(r, 4)),
         jit_options=lambda: {"donate_argnames": ("b", "c"), "keep_unused": True})
def donated_and_unused(a, b, c):
    return a @ b, c * 2.0


@program("signature", lambda r: ({"a": normal(r, 3), "b": (normal(r, 2, 2), ints(r, 0, 5, 4))},))
def pytree_in_out(tree):
    a, (m, i) = tree["a"], tree["b"]
    return {"sum": jnp.sum(a), "nested": (m @ m, [i * 2, i.astype(jnp.float32)]), "none": None}


@program("signature", lambda r: (np.zeros((0, 4), np.float32), normal(r, 3, 4), np.zeros((2, 0), np.int32)))
def zero_size_arrays(e, x, ei):
    return (jnp.concatenate([e, x]), jnp.sum(e, axis=0), e @ x.T, jnp.max(ei, axis=1, initial=0),
            ei.astype(jnp.float32), jnp.zeros((0,)), x[:, 4:])


@program("signature", lambda r: (np.float32(r.standard_normal()), np.int32(r.integers(1, 9)), np.bool_(True)))
def scalar_only(x, n, flag):
    y = jnp.where(flag, x * n, x / n)
    return y, jnp.sqrt(jnp.abs(y)), n + 1, jnp.logical_not(flag)


@program("signature", lambda r: (normal(r, 3),))
def constant_output(x):
    big = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    return x + 1, big, np.array([1, 2, 3], np.uint16), np.float32(np.inf), np.float32(np.nan)


@program("signature", lambda r: (normal(r, 2),))
def splat_and_special_constants(x):
    return (x + jnp.array([-np.inf, np.nan], np.float32), jnp.full((3,), -0.0),
            jnp.array([1e-40, 3.4e38], np.float32), jnp.array([True, False]), jnp.array(2.5, jnp.bfloat16),
            jnp.array([1 + 2j, -3j], np.complex64))


# ==========================================================================
# Sharded programs (need SHARDED_DEVICE_COUNT devices).

def _mesh(axis_type=jax.sharding.AxisType.Auto):
    return jax.make_mesh((2, 4), ("x", "y"), axis_types=(axis_type, axis_type))


def _named(*spec, mesh=None):
    return NamedSharding(mesh or _mesh(), P(*spec))


def _sharded_matmul_options():
    return {"in_shardings": (_named("x", "y"), _named("y", None)),
            "out_shardings": _named(None, "y")}


@program("sharded", lambda r: (normal(r, 8, 16), normal(r, 16, 8)),
         jit_options=_sharded_matmul_options, num_devices=SHARDED_DEVICE_COUNT)
def sharded_matmul(a, b):
    c = lax.with_sharding_constraint(a @ b, _named("x", None))
    return jnp.tanh(c)


def _sharded_mlp_options():
    replicated = _named()
    return {"in_shardings": ({"w1": _named(None, "y"), "w2": _named("y", None)}, _named("x", None)),
            "out_shardings": (_named("x", None), replicated)}


@program("sharded", lambda r: ({"w1": normal(r, 16, 32), "w2": normal(r, 32, 8)}, normal(r, 8, 16)),
         jit_options=_sharded_mlp_options, num_devices=SHARDED_DEVICE_COUNT)
def sharded_mlp(params, x):
    h = jax.nn.relu(x @ params["w1"])
    h = lax.with_sharding_constraint(h, _named("x", "y"))
    out = h @ params["w2"]
    return out, jnp.mean(out ** 2)


def _sharded_donation_options():
    # Donation without out_shardings leaves aliasing to XLA: jax.buffer_donor.
    return {"in_shardings": (_named("x", "y"), _named("x", "y")), "donate_argnums": (0, 1)}


@program("sharded", lambda r: (normal(r, 8, 8), normal(r, 8, 8)),
         jit_options=_sharded_donation_options, num_devices=SHARDED_DEVICE_COUNT)
def sharded_donated_update(state, grad):
    new = lax.with_sharding_constraint(state - 0.1 * grad, _named("x", P.UNCONSTRAINED))
    return new, jnp.sum(grad * grad)


def _shard_map_psum(a):
    col = lax.psum(jnp.sum(a, axis=0, keepdims=True), "y")
    return a * col


@program("sharded", lambda r: (normal(r, 8, 16),), num_devices=SHARDED_DEVICE_COUNT)
def shard_map_psum(a):
    return jax.shard_map(_shard_map_psum, mesh=_mesh(), in_specs=P("x", "y"), out_specs=P("x", "y"))(a)


def _shard_map_collectives(a):
    gathered = lax.all_gather(a, "y", axis=1, tiled=True, to="invarying")
    shifted = lax.ppermute(a, "x", perm=[(0, 1), (1, 0)])
    swapped = lax.all_to_all(a, "y", split_axis=0, concat_axis=0, tiled=True)
    mx = lax.pmax(jnp.max(a), ("x", "y"))
    idx = lax.axis_index("y")
    return gathered, shifted + swapped + mx, lax.psum_scatter(a, "y", scatter_dimension=0, tiled=True) * idx


@program("sharded", lambda r: (normal(r, 8, 16),), num_devices=SHARDED_DEVICE_COUNT)
def shard_map_collectives(a):
    f = jax.shard_map(_shard_map_collectives, mesh=_mesh(), in_specs=P("x", "y"),
                      out_specs=(P("x", None), P("x", "y"), P("x", "y")))
    return f(a)


def _explicit(*spec):
    return _named(*spec, mesh=_mesh(jax.sharding.AxisType.Explicit))


def _explicit_options():
    return {"in_shardings": (_explicit("x", None), _explicit(None, "y"))}


@program("sharded", lambda r: (normal(r, 8, 12), normal(r, 12, 16)),
         jit_options=_explicit_options, num_devices=SHARDED_DEVICE_COUNT)
def sharded_explicit_reshard(a, b):
    c = jnp.dot(a, b, out_sharding=_explicit("x", "y"))
    return jax.sharding.reshard(c, _explicit(None, "y")), jnp.sum(c, axis=0)


def _decode_step_args(r, layers=3, d=64, heads=4, ctx=40, vocab=50):
    n = lambda *s: normal(r, *s) * 0.1
    params = dict(wqkv=n(layers, d, 3 * d), wo=n(layers, d, d), w1=n(layers, d, 4 * d),
                  w2=n(layers, 4 * d, d), g=uniform(r, layers, d, lo=0.5, hi=1.5),
                  emb=n(vocab, d), wout=n(d, vocab))
    return (params, normal(r, layers, ctx, heads, d // heads), normal(r, layers, ctx, heads, d // heads),
            np.int32(7), np.int32(ctx // 2))


@program("control_flow", _decode_step_args)
def decode_step_kv_cache(params, kc, vc, tok, pos):
    """One decode step of a small transformer: a scan over stacked layer
    weights, a KV cache updated at `pos`, attention of one query."""
    heads, hd = kc.shape[2], kc.shape[3]
    d = heads * hd
    def ln(x, g):
        m = x.mean(-1, keepdims=True)
        return (x - m) * lax.rsqrt(((x - m) ** 2).mean(-1, keepdims=True) + 1e-5) * g
    def layer(x, p):
        wqkv, wo, w1, w2, g, k, v = p
        q, kn, vn = jnp.split(ln(x, g) @ wqkv, 3)
        k = lax.dynamic_update_slice(k, kn.reshape(1, heads, hd), (pos, 0, 0))
        v = lax.dynamic_update_slice(v, vn.reshape(1, heads, hd), (pos, 0, 0))
        s = jnp.einsum("hd,thd->ht", q.reshape(heads, hd), k) / np.sqrt(hd)
        s = jnp.where(jnp.arange(k.shape[0])[None, :] <= pos, s, -1e30)
        o = jnp.einsum("ht,thd->hd", jax.nn.softmax(s, axis=-1), v).reshape(d)
        x = x + o @ wo
        x = x + jax.nn.gelu(ln(x, g) @ w1) @ w2
        return x, (k, v)
    x, (k2, v2) = lax.scan(layer, params["emb"][tok], (params["wqkv"], params["wo"], params["w1"],
                                                       params["w2"], params["g"], kc, vc))
    return x @ params["wout"], k2, v2


@program("control_flow", lambda r: (normal(r, 4, 96, dtype=jnp.bfloat16),
                                    (normal(r, 5, 96, 96) * 0.1).astype(jnp.bfloat16),
                                    normal(r, 5, 96, dtype=jnp.bfloat16)))
def scan_stacked_weights_bf16(x, ws, bs):
    def body(x, wb):
        w, b = wb
        return jnp.tanh(x @ w + b), None
    return lax.scan(body, x, (ws, bs))[0]


# jax.nn.dot_product_attention at sizes the GPU backend's flash kernel
# takes (head dims a multiple of 16, ragged query and key tiles).
@program("attention", lambda r: tuple(normal(r, 2, 96, 2, 32, dtype=jnp.bfloat16) for _ in range(3)))
def dot_product_attention_bf16(q, k, v):
    return jax.nn.dot_product_attention(q, k, v)


@program("attention", lambda r: (normal(r, 1, 80, 4, 64, dtype=jnp.bfloat16),
                                 normal(r, 1, 80, 2, 64, dtype=jnp.bfloat16),
                                 normal(r, 1, 80, 2, 64, dtype=jnp.bfloat16)))
def dot_product_attention_gqa_causal_bf16(q, k, v):
    return jax.nn.dot_product_attention(q, k, v, is_causal=True)


@program("attention", lambda r: _qkv(r, t=70, h=2, d=16))
def dot_product_attention_causal_f32(q, k, v):
    return jax.nn.dot_product_attention(q, k, v, is_causal=True)
