"""Every private JAX internal the package uses, each in one function.

JAX has no public API for these. Each function degrades to doing nothing
(returning False) where the installed JAX lacks what it reaches for, and
tests/pjrt/jax_internals_test.py fails on such a JAX, so that a JAX upgrade
shows here rather than as a quietly missing feature. missing() lists those
absent.
"""


def register_plugin(platform, library_path, priority):
    """Registers the PJRT plugin library as `platform`. xla_bridge's
    register_plugin is the call JAX's plugin discovery documents for a
    plugin's initialize(), but it lives in jax._src. Empty options, not
    none: after jax.distributed.initialize JAX passes the client's create
    options (jax_pjrt_client_create_options among them) only for a plugin
    registered with options (make_pjrt_c_api_client)."""
    from jax._src import xla_bridge

    xla_bridge.register_plugin(platform, priority=priority, library_path=library_path, options={})


def platform_registered(platform):
    """Whether `platform` has a backend factory already (registered by hand
    before JAX's discovery, or the other way round)."""
    try:
        from jax._src import xla_bridge
    except ImportError:
        return False
    return platform in getattr(xla_bridge, "_backend_factories", {})


def allow_donation(platform):
    """JAX lowers donate_argnums to input/output aliases only for the
    platforms in a fixed list; the plugin honours them (a donated argument is
    consumed and, on the GPU, its memory holds the result where the program
    writes it in place), so the platform joins the list. Without the list
    JAX ignores the donation, with its warning."""
    try:
        from jax._src.interpreters import mlir
    except ImportError:
        return False
    platforms = getattr(mlir, "_platforms_with_donation", None)
    if not isinstance(platforms, list):
        return False
    if platform not in platforms:
        platforms.append(platform)
    return True


def lower_linalg_as_on_cpu(platform):
    """JAX registers the lowerings of eigh, svd, eig, schur, geqrf, ...
    (LAPACK custom calls) only for the platforms it knows, so lowering them
    for a plugin fails before the plugin sees the program. hlograph runs
    those calls (on the host, with the LAPACK XLA:CPU uses), so the CPU rules
    serve the platform too. geqrf_p and geqp3_p are not in jax.lax.linalg,
    and the table of rules per platform is private."""
    try:
        from jax._src import core
        from jax._src.interpreters import mlir
        from jax._src.lax import linalg
    except ImportError:
        return False
    rules = getattr(mlir, "_platform_specific_lowerings", None)
    if rules is None or "cpu" not in rules:
        return False
    for prim in vars(linalg).values():
        if not isinstance(prim, core.Primitive):
            continue
        cpu = rules["cpu"].get(prim)
        if cpu is not None and prim not in rules.get(platform, {}):
            mlir.register_lowering(prim, cpu.rule, platform=platform, inline=cpu.inline)
    return True


def missing():
    """The internals above that the installed JAX lacks, by name."""
    found = []
    try:
        from jax._src import xla_bridge
        from jax._src.interpreters import mlir
        from jax._src.lax import linalg  # noqa: F401
    except ImportError as e:
        return [f"module: {e}"]
    for owner, name in ((xla_bridge, "register_plugin"), (xla_bridge, "_backend_factories"),
                        (mlir, "_platforms_with_donation"), (mlir, "_platform_specific_lowerings")):
        if not hasattr(owner, name):
            found.append(f"{owner.__name__}.{name}")
    return found
