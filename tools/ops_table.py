#!/usr/bin/env python3
"""The table of ops and element types per backend in docs/OPS.md, derived
from the code:

- CPU interpreter: the ops every Register*Kernels function of
  src/backends/cpu registers (the kernel table, kernel_registry.cpp);
- GPU backend: the elementwise ops the planner fuses and the code generator
  translates (plan/elementwise_support.cpp: every op of
  src/ir/ops/elementwise_ops.def but those it excludes, the ops it adds, and
  the ones with a complex translation), the index maps and the other
  classes of plan/op_classes.cpp, the ops the passes inline, and the element
  types of IsSupportedElementType.

Ops are named in the code by id (`OpId::kAdd`); the ids' names come from
src/ir/ops/*.def.

How the GPU backend runs each non-elementwise op is written here (GPU_OPS),
and --check fails when op_classes.cpp names an op this table does not, or
the reverse, so the table cannot drift from the classifier.

    tools/ops_table.py            rewrite the generated parts of docs/OPS.md
    tools/ops_table.py --check    fail (exit 1) when they are out of date
"""

import argparse
import difflib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "OPS.md"
OP = r'"((?:stablehlo|chlo|sdy|func|check)\.[a-z_0-9-]+)"'
OP_ID = r"\bOpId::(k\w+)"

# How the GPU backend runs the ops op_classes.cpp names that are neither
# elementwise nor index maps: (how, limits).
GPU_OPS = {
    "func.return": ("the program's results", ""),
    "stablehlo.return": ("a region's results", ""),
    "stablehlo.while": ("a conditional WHILE graph node", "loops of a known trip count unrolled within a node budget; "
                        "`--mode stream` decides on the host"),
    "stablehlo.case": ("a SWITCH graph node", ""),
    "stablehlo.if": ("a SWITCH graph node", ""),
    "stablehlo.optimization_barrier": ("no work (results alias operands)", ""),
    "sdy.sharding_constraint": ("no work (one device)", ""),
    "stablehlo.dot_general": ("cuBLASLt; at most 8 rows of f32, f16 or bf16: a generated kernel with its epilogue",
                              "f32, f64, f16, bf16 and complex; i8 x i8 -> i32 and f8 on the 8-bit tensor cores "
                              "(n and k multiples of 16); other integer and mixed products a generated kernel; f32 "
                              "in TF32 at DEFAULT and HIGH precision"),
    "stablehlo.reduce": ("a reduction kernel (the elementwise ops before it fused in)",
                         "a body of scalar elementwise ops reading nothing from outside"),
    "stablehlo.sort": ("a sort kernel", "a comparator of scalar elementwise ops"),
    "chlo.top_k": ("a selection kernel", "not on complex operands"),
    "stablehlo.rng_bit_generator": ("a generated kernel", "THREE_FRY and PHILOX (DEFAULT is PHILOX)"),
    "stablehlo.custom_call": ("jaxlib's LAPACK targets run on the host by the CPU interpreter",
                              "other targets are refused"),
    "stablehlo.scatter": ("a scatter kernel; fused where it maps elements one to one",
                          "an update body of scalar elementwise ops"),
    "stablehlo.convolution": ("cuDNN (with the elementwise epilogue after a forward convolution), else a generated "
                              "kernel", "cuDNN for f32, f64, f16 and bf16 (f16/bf16 into f32 too), 1 to 3 spatial "
                              "dims"),
    "stablehlo.fft": ("cuFFT for long transforms, else a generated kernel: a direct DFT per output element",
                      "FFT, IFFT, RFFT, IRFFT over 1 to 3 trailing dims; chosen by estimated time "
                      "(HLOGRAPH_GPU_FFT pins it)"),
    "chlo.scan": ("a scan kernel", "prefix scans only"),
    "stablehlo.reduce_window": ("a scan kernel for a prefix scan, else fused (each output folds its window)",
                                "a body of scalar elementwise ops"),
    "stablehlo.select_and_scatter": ("fused (each output gathers the windows that select it)",
                                     "scalar elementwise select and scatter bodies"),
    "stablehlo.bitcast_convert": ("fused", "between widths it maps indices too"),
}
# Ops the passes remove before the GPU plan (src/passes): file, how.
INLINED = {
    "func.call": ("inline_calls.cpp", "inlined before planning"),
    "stablehlo.composite": ("inline_calls.cpp", "inlined before planning (its decomposition)"),
    "stablehlo.uniform_quantize": ("lower_quantized.cpp", "lowered before planning to fused float ops (divide, add, "
                                   "clamp, round, convert to the storage integers)"),
    "stablehlo.uniform_dequantize": ("lower_quantized.cpp", "lowered before planning to fused ops: (stored - zero "
                                     "point) * scale"),
}
# The elementwise ops StableHLO and CHLO define on complex operands (the
# StableHLO and CHLO specifications): where the GPU backend does not
# translate one for complex, the table says so.
COMPLEX_OPS = {
    "stablehlo." + n for n in ("abs", "add", "atan2", "bitcast_convert", "cbrt", "clamp", "compare", "convert",
                               "cosine", "divide", "exponential", "exponential_minus_one", "imag", "log",
                               "log_plus_one", "logistic", "maximum", "minimum", "multiply", "negate", "power", "real",
                               "rsqrt", "select", "sign", "sine", "sqrt", "subtract", "tan", "tanh")
} | {"chlo." + n for n in ("acos", "acosh", "asin", "asinh", "atan", "atanh", "conj", "cosh", "sinh", "square", "tan")}
# Terminators: the interpreter ends a region at one (interpreter.cpp, the
# op definition's kTerminator trait) rather than through the registry.
CPU_TERMINATORS = {"func.return", "stablehlo.return"}
# Limits of the CPU interpreter worth a note (the rest: every element type).
CPU_NOTES = {
    "stablehlo.custom_call": "jaxlib's LAPACK targets (potrf, getrf, geqrf, orgqr/ungqr, syevd/heevd, gesdd/gesvd, "
                             "geev, trsm), XLA's Qr and ProductOfElementaryHouseholderReflectors, mhlo.topk, the "
                             "check targets, sharding and placement annotations; others are refused by name",
    "stablehlo.all_reduce": "across the devices of a multi-device run; one device: the identity",
    "stablehlo.all_gather": "across the devices of a multi-device run; one device: the identity",
    "stablehlo.reduce_scatter": "across the devices of a multi-device run; one device: the identity",
    "stablehlo.all_to_all": "across the devices of a multi-device run; one device: the identity",
    "stablehlo.collective_permute": "across the devices of a multi-device run; one device: the identity",
    "stablehlo.collective_broadcast": "across the devices of a multi-device run; one device: the identity",
    "stablehlo.cross-replica-sum": "one device: the identity",
    "stablehlo.replica_id": "the device's in a multi-device run; 0 on one device",
    "stablehlo.partition_id": "the device's in a multi-device run; 0 on one device",
    "stablehlo.send": "between the devices of `interpreter.run_parallel`",
    "stablehlo.recv": "between the devices of `interpreter.run_parallel`",
    "stablehlo.infeed": "the `infeed` of `interpreter.run_parallel`",
    "stablehlo.outfeed": "among the devices of `interpreter.run_parallel`",
    "sdy.reshard": "one device: the identity",
    "sdy.propagation_barrier": "the identity",
    "sdy.sharding_constraint": "the identity",
    "sdy.manual_computation": "its body on each device's pieces of the operands in a multi-device run; one "
                              "device: runs its body",
    "sdy.sharding_group": "no effect",
}


def read(path):
    return (ROOT / path).read_text()


def function_bodies(text, signature):
    """The bodies of the functions whose definition matches `signature`
    (braces counted; the sources keep braces out of their strings here)."""
    bodies = []
    for m in re.finditer(signature + r"[^{;]*\{", text):
        depth, i = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        bodies.append(text[m.end():i - 1])
    return bodies


def declared(kind):
    """{id: name} of the ops declared in src/ir/ops/*.def; kind "ELEMENTWISE" for the elementwise ones only."""
    ids = {}
    for path in ("src/ir/ops/elementwise_ops.def", "src/ir/ops/op_ids.def"):
        for k, op_id, name in re.findall(r'^HLOGRAPH_(ELEMENTWISE|OP)\((k\w+), "([^"]+)"', read(path), re.M):
            if kind in (None, k):
                ids[op_id] = name
    return ids


def ops_named(text):
    """The ops `text` names, by string or by id, or through a list of ops it includes (ir/ops/*.def)."""
    names = declared(None)
    ops = set(re.findall(OP, text)) | {names[i] for i in re.findall(OP_ID, text) if i in names}
    for listed in re.findall(r'#include "(src/)?(ir/ops/\w+\.def)"', text):
        ops |= {names[i] for i in re.findall(r"^HLOGRAPH_\w+\((k\w+),", read("src/" + listed[1]), re.M)}
    return ops


def cpu_ops():
    ops = set()
    for path in sorted((ROOT / "src/backends/cpu").rglob("*.cpp")):
        for body in function_bodies(path.read_text(), r"void Register\w*Kernels\(KernelRegistry& r\)"):
            ops |= ops_named(body)
    return ops


SUPPORT = "src/backends/gpu/plan/elementwise_support.cpp"


def support_lists():
    """Support()'s lists: {"elementwise": ops, "complex": ops, "excluded": ops}."""
    (body,) = function_bodies(read(SUPPORT), r"const OpSupport& Support\(\)")
    lists = {"elementwise": set(), "complex": set()}
    for ids, table in re.findall(r"for \(OpId id : \{(.*?)\}\) \{\s*s->(\w+)", body, re.S):
        lists[table] |= ops_named(ids)
    declared_loop = body[body.index("ElementwiseOps()"):]
    lists["excluded"] = ops_named(declared_loop[:declared_loop.index("}")])
    return lists


def gpu_elementwise():
    lists = support_lists()
    return (set(declared("ELEMENTWISE").values()) - lists["excluded"]) | lists["elementwise"]


def gpu_complex():
    return support_lists()["complex"]


def gpu_index_maps():
    text = read("src/backends/gpu/plan/op_classes.cpp")
    (body,) = function_bodies(text, r"bool IsIndexMapOp\(ir::OpId id\)")
    return ops_named(body)


def gpu_classified():
    return ops_named(read("src/backends/gpu/plan/op_classes.cpp"))


def element_types():
    text = read("src/ir/element_type.h")
    enum = re.search(r"enum class ElementType[^{]*\{(.*?)\}", text, re.S).group(1)
    return re.findall(r"\bk([A-Z0-9]+)\b", enum)


def gpu_element_types():
    (body,) = function_bodies(read(SUPPORT), r"bool IsSupportedElementType\(E t\)")
    return re.findall(r"case E::k([A-Z0-9]+):", body)


def type_name(enum_name):
    name = enum_name.lower()
    return {"c64": "complex<f32>", "c128": "complex<f64>"}.get(name, name)


def drift():
    """Ops op_classes.cpp and the passes name that GPU_OPS/INLINED lack, or the reverse."""
    named = gpu_classified() - gpu_elementwise() - gpu_index_maps()
    problems = [f"plan/op_classes.cpp classifies {op}: add it to GPU_OPS in tools/ops_table.py"
                for op in sorted(named - set(GPU_OPS))]
    problems += [f"GPU_OPS has {op}, which plan/op_classes.cpp no longer names"
                 for op in sorted(set(GPU_OPS) - gpu_classified())]
    problems += [f"plan/elementwise_support.cpp fuses {op} on complex operands, which COMPLEX_OPS lacks"
                 for op in sorted(gpu_complex() - COMPLEX_OPS)]
    for op, (path, _) in INLINED.items():
        if op not in ops_named(read(f"src/passes/{path}")):
            problems.append(f"INLINED says src/passes/{path} removes {op}, which it no longer names")
    return problems


def op_table():
    cpu, elementwise, complex_ok = cpu_ops(), gpu_elementwise(), gpu_complex()
    index_maps = gpu_index_maps()
    rows = ["| Op | CPU interpreter | GPU backend | GPU limits |", "|---|---|---|---|"]
    for op in sorted(cpu | elementwise | index_maps | set(GPU_OPS) | set(INLINED), key=lambda o: (o.split(".")[0], o)):
        if op in CPU_TERMINATORS:
            on_cpu = "yes: ends its region"
        else:
            on_cpu = ("yes" + (f": {CPU_NOTES[op]}" if op in CPU_NOTES else "")) if op in cpu else "no"
        if op in GPU_OPS:
            how, limits = GPU_OPS[op]
        elif op in INLINED:
            how, limits = INLINED[op][1], ""
        elif op in elementwise:
            how = "fused (elementwise)"
            limits = "not on complex operands" if op in COMPLEX_OPS - complex_ok else ""
        elif op in index_maps:
            how, limits = "fused (index map)", "splat: inline; other constants: a buffer" if op == "stablehlo.constant" else ""
        else:
            how, limits = "no", ""
        rows.append(f"| `{op}` | {on_cpu} | {how} | {limits} |")
    return "\n".join(rows)


def type_table():
    gpu = set(gpu_element_types())
    rows = ["| Element type | CPU interpreter | GPU backend |", "|---|---|---|"]
    for t in element_types():
        rows.append(f"| {type_name(t)} | yes | {'yes' if t in gpu else 'no'} |")
    return "\n".join(rows)


def regenerate(text):
    for name, table in (("ops", op_table()), ("types", type_table())):
        begin, end = f"<!-- {name}-table:begin (tools/ops_table.py) -->", f"<!-- {name}-table:end -->"
        if begin not in text or end not in text:
            raise SystemExit(f"docs/OPS.md lacks the markers {begin} ... {end}")
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = f"{head}{begin}\n{table}\n{end}{tail}"
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail when docs/OPS.md is out of date")
    args = parser.parse_args()
    problems = drift()
    current = DOC.read_text()
    wanted = regenerate(current)
    if args.check:
        if wanted != current:
            problems.append("docs/OPS.md is out of date: run tools/ops_table.py\n" + "".join(
                difflib.unified_diff(current.splitlines(True), wanted.splitlines(True), "docs/OPS.md", "generated")))
        for p in problems:
            print(p)
        print("docs/OPS.md matches the code" if not problems else f"{len(problems)} problem(s)")
        return 1 if problems else 0
    DOC.write_text(wanted)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
