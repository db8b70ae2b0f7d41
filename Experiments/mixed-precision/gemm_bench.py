#!/usr/bin/env python3
"""GEMM throughput of the bench network's GEMM shapes: system OpenBLAS sgemm against oneDNN
(Debian's libdnnl2 2.6.3) in f32, bf16 and int8. A measurement for issue 13 ("Mixed precision,
only if it can be had honestly"), not product code.

Paths (``--paths``, default all):
  openblas         cblas_sgemm of /usr/lib/x86_64-linux-gnu/libopenblas.so.0, once per kernel set
                   of ``--openblas-coretypes`` (default: the environment's OPENBLAS_CORETYPE, and
                   unset = OpenBLAS's own pick for this CPU)
  dnnl-sgemm       dnnl_sgemm (f32 BLAS-like API)
  dnnl-f32-matmul  matmul primitive, f32 x f32 -> f32
  dnnl-bf16-matmul matmul primitive, bf16 x bf16 -> f32 (inputs already bf16; the f32->bf16
                   reorders of both inputs are timed too, giving a second figure "incl. cvt")
  dnnl-u8s8s32     dnnl_gemm_u8s8s32 (int8 BLAS-like API)
  dnnl-int8-matmul matmul primitive, u8 x s8 -> s32 (to learn which kernel oneDNN picks)

Every (path, thread count, kernel set) runs in a fresh subprocess, so that the thread count is
fixed before the library loads (OMP_NUM_THREADS for oneDNN, whose Debian build uses OpenMP via
libgomp; openblas_set_num_threads for OpenBLAS) and one library's spinning threads never steal
the cores of another's timing.

GEMM convention: row-major C[M,N] = op(A)[M,K] op(B)[K,N], as the engine calls cblas_sgemm
(channels-last: a 1x1 conv forward is M = pixels, N = out channels, K = in channels; an im2col
3x3 conv has K = 9 * in channels). For each conv three GEMMs, as in Sources/Engine/Ops/
Convolution.swift: fwd (NN), bwd-data dX = dY W^T (NT), bwd-weight dW = X^T dY (TN).

Timing: one warm-up call (which also JIT-compiles oneDNN's kernels), then a calibrated number of
calls per sample (so that a sample lasts at least --min-sample-ms), --repeats samples; reported
as GFLOP/s (2 M N K / time; GOP/s for int8) of the best and the median sample.

Checks: each result is compared on a sampled block of C (up to 32 rows x 32 columns) with a
float64 reference computed by numpy without BLAS; bf16 against both the f32 inputs (the
precision the lever costs) and the bf16-rounded inputs (that the kernel itself is right);
int8 exactly.

Usage:
  python3 gemm_bench.py --tiny                 # a few 64^3-sized GEMMs, to check it works
  python3 gemm_bench.py --json results.json    # the measurement (nothing else running!)
"""

import argparse
import ctypes
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

OPENBLAS_PATH = "/usr/lib/x86_64-linux-gnu/libopenblas.so.0"
DNNL_PATH = "libdnnl.so.2"
GOMP_PATH = "libgomp.so.1"

ALL_PATHS = ["openblas", "dnnl-sgemm", "dnnl-f32-matmul", "dnnl-bf16-matmul", "dnnl-u8s8s32", "dnnl-int8-matmul"]

# ---------------------------------------------------------------------------------------------
# Shapes, from /work/shared/specs/ssd-model.md and Configs/bench.yaml


def network_gemms(width=256, height=512, alpha=0.5, fpn_depth=64, head_layers=2, min_level=3,
                  max_level=6, batch=8, num_classes=13, anchors=8):
    """The convs of the spec's network that the engine runs as GEMMs, as (group, name, rows, K,
    cout, count): rows = batch * output pixels, K = in channels (x 9 for 3x3), count = how many
    convs of one training step have this shape. Depthwise convs are not GEMMs; the RGB stem runs
    on the engine's direct few-channel kernel (FewChannelConv.swift), so neither is listed."""
    ch = lambda c: max(8, int(math.floor(c * alpha)))
    pixels = lambda stride: batch * (height // stride) * (width // stride)
    out = []

    def add(group, name, rows, k, cout, count=1):
        for i, (g, n, r, kk, c, cnt) in enumerate(out):
            if (g, r, kk, c) == (group, rows, k, cout):
                out[i] = (g, n + "," + name if name not in n else n, r, kk, c, cnt + count)
                return
        out.append((group, name, rows, k, cout, count))

    # Backbone: stem (stride 2) then 13 depthwise-separable blocks; the pointwise 1x1 is the GEMM.
    blocks = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] + [(512, 1)] * 5 + [(1024, 2), (1024, 1)]
    stride, cin = 2, ch(32)
    c_channels = {}
    for i, (c, s) in enumerate(blocks, start=1):
        stride *= s
        add("backbone", f"b{i}", pixels(stride), cin, ch(c))
        cin = ch(c)
        if i == 5:
            c_channels[3] = cin
        if i == 11:
            c_channels[4] = cin
        if i == 13:
            c_channels[5] = cin
    d = fpn_depth
    # FPN laterals (1x1) and outputs (3x3, stride 1) on levels 3-5; extra levels by 3x3 stride 2.
    for lvl in (3, 4, 5):
        add("fpn", f"lat{lvl}", pixels(2 ** lvl), c_channels[lvl], d)
    for lvl in (3, 4, 5):
        add("fpn", f"out{lvl}", pixels(2 ** lvl), 9 * d, d)
    for lvl in range(6, max_level + 1):
        add("fpn", f"p{lvl}", pixels(2 ** lvl), 9 * d, d)
    # Heads on every level: two towers of head_layers 3x3 D->D, then class (A*K) and box (A*4).
    for lvl in range(min_level, max_level + 1):
        add("head", f"tower{lvl}", pixels(2 ** lvl), 9 * d, d, 2 * head_layers)
        add("head", f"cls{lvl}", pixels(2 ** lvl), 9 * d, anchors * num_classes)
        add("head", f"box{lvl}", pixels(2 ** lvl), 9 * d, anchors * 4)
    return out


def shape_list(args):
    """Rows of (group, name, pass, transA, transB, M, N, K, count per step)."""
    passes = args.passes.split(",")
    rows = []
    if args.tiny:
        for (m, n, k) in [(64, 64, 64), (96, 80, 72)]:
            for p in passes:
                rows.append(gemm_of_pass("tiny", f"{m}x{n}x{k}", p, m, k, n, None))
        return rows
    for (group, name, pix, k, cout, count) in network_gemms(batch=args.batch):
        for p in passes:
            rows.append(gemm_of_pass(group, name, p, pix, k, cout, count))
    if not args.no_blocks:
        # The engine's own calls are smaller than whole layers: Winograd F(2x2,3x3) runs 16 GEMMs
        # per block of 128 tiles, im2col convs blocks of about 256 output pixels, each one
        # single-threaded OpenBLAS call on one worker (Winograd.swift, Convolution.swift).
        for p in passes:
            rows.append(gemm_of_pass("block", "winograd128", p, 128, 64, 64, None))
        rows.append(gemm_of_pass("block", "im2col256", "fwd", 256, 9 * 64, 64, None))
    rows.append(("peak", "square", "fwd", False, False, 2048, 2048, 2048, None))
    return rows


def gemm_of_pass(group, name, p, pix, k, cout, count):
    if p == "fwd":          # Y[pix, cout] = X[pix, k] W[k, cout]
        return (group, name, p, False, False, pix, cout, k, count)
    if p == "bwd_data":     # dX[pix, k] = dY[pix, cout] W^T  (W stored k x cout)
        return (group, name, p, False, True, pix, k, cout, count)
    if p == "bwd_weight":   # dW[k, cout] = X^T dY  (X stored pix x k)
        return (group, name, p, True, False, k, cout, pix, count)
    raise SystemExit(f"unknown pass {p}")


# ---------------------------------------------------------------------------------------------
# Worker side: one library, one thread count


def aligned(shape, dtype, align=64):
    dtype = np.dtype(dtype)
    n = int(np.prod(shape))
    raw = np.empty(n * dtype.itemsize + align, dtype=np.uint8)
    off = (-raw.ctypes.data) % align
    return raw[off:off + n * dtype.itemsize].view(dtype).reshape(shape)


def ptr(a):
    return ctypes.c_void_p(a.ctypes.data)


def to_bf16_bits(x):
    """float32 -> bfloat16 bit patterns (uint16), round to nearest even (as oneDNN's reorder)."""
    u = x.view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return u.astype(np.uint16)


def from_bf16_bits(b):
    return (b.astype(np.uint32) << 16).view(np.float32)


def time_call(fn, repeats, min_sample_ms):
    """Warm-up, then `repeats` samples of n calls each; returns per-call seconds (list), n."""
    fn()
    t0 = time.perf_counter()
    fn()
    one = max(time.perf_counter() - t0, 1e-7)
    n = max(1, int(math.ceil(min_sample_ms / 1000.0 / one)))
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - t0) / n)
    return samples, n


def sample_index(extent, rng, count=32):
    if extent <= count:
        return np.arange(extent)
    return np.sort(rng.choice(extent, size=count, replace=False))


def reference_block(a_stored, b_stored, ta, tb, rows, cols):
    """float64 reference of C[rows, cols] without BLAS (numpy einsum, optimize=False)."""
    a = a_stored.T if ta else a_stored          # logical M x K
    b = b_stored.T if tb else b_stored          # logical K x N
    a64 = np.asarray(a[rows, :], dtype=np.float64)
    b64 = np.asarray(b[:, cols], dtype=np.float64)
    return np.einsum("ik,kj->ij", a64, b64, optimize=False)


def rel_err(c, ref):
    return float(np.linalg.norm(np.asarray(c, dtype=np.float64) - ref) / max(np.linalg.norm(ref), 1e-30))


class OpenBLAS:
    def __init__(self, threads):
        lib = ctypes.CDLL(OPENBLAS_PATH)
        lib.openblas_get_corename.restype = ctypes.c_char_p
        lib.openblas_get_config.restype = ctypes.c_char_p
        lib.openblas_set_num_threads.argtypes = [ctypes.c_int]
        lib.openblas_get_num_threads.restype = ctypes.c_int
        f = ctypes.c_float
        lib.cblas_sgemm.argtypes = [ctypes.c_int] * 6 + [f, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                                                         ctypes.c_int, f, ctypes.c_void_p, ctypes.c_int]
        lib.cblas_sgemm.restype = None
        lib.openblas_set_num_threads(threads)
        self.lib = lib
        self.info = {
            "library": loaded_path("openblas"),
            "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
            "corename_before_first_call": lib.openblas_get_corename().decode(),
            "config": lib.openblas_get_config().decode(),
            "num_threads": lib.openblas_get_num_threads(),
            "exports_cblas_sbgemm": hasattr_sym(lib, "cblas_sbgemm"),
        }

    def prepare(self, ta, tb, m, n, k, rng):
        a = aligned((k, m) if ta else (m, k), np.float32)
        b = aligned((n, k) if tb else (k, n), np.float32)
        a[...] = rng.standard_normal(a.shape, dtype=np.float32)
        b[...] = rng.standard_normal(b.shape, dtype=np.float32)
        c = aligned((m, n), np.float32)
        lda, ldb = a.shape[1], b.shape[1]
        args = (101, 112 if ta else 111, 112 if tb else 111, m, n, k, 1.0, ptr(a), lda, ptr(b), ldb, 0.0, ptr(c), n)
        fn = lambda: self.lib.cblas_sgemm(*args)

        def check(rows, cols):
            return {"rel_err_vs_f64": rel_err(c[np.ix_(rows, cols)], reference_block(a, b, ta, tb, rows, cols))}
        return fn, check, {}


def loaded_path(fragment):
    """The file a loaded shared library was mapped from (/proc/self/maps)."""
    with open("/proc/self/maps") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6 and fragment in os.path.basename(parts[5]):
                return parts[5]
    return None


def hasattr_sym(lib, name):
    try:
        getattr(lib, name)
        return True
    except AttributeError:
        return False


# oneDNN 2.6.3 constants (from /usr/include/oneapi/dnnl/dnnl_types.h, sizes checked with a C
# program against the installed header: sizeof(dnnl_memory_desc_t) = 696, sizeof(dnnl_matmul_desc_t)
# = 2800, dnnl_exec_arg_t = {int arg; void *memory} = 16 bytes).
DNNL_SUCCESS = 0
DNNL_BF16, DNNL_F32, DNNL_S32, DNNL_S8, DNNL_U8 = 2, 3, 4, 5, 6
DNNL_TAG_AB, DNNL_TAG_BA = 3, 22
DNNL_CPU = 1
DNNL_STREAM_DEFAULT_FLAGS = 1
DNNL_QUERY_IMPL_INFO_STR = 8
DNNL_ARG_SRC, DNNL_ARG_DST, DNNL_ARG_WEIGHTS = 1, 17, 33
DNNL_ARG_FROM, DNNL_ARG_TO = 1, 17
SIZEOF_MEMORY_DESC = 696
SIZEOF_MATMUL_DESC = 2800
DNNL_STATUS = {0: "success", 1: "out_of_memory", 2: "invalid_arguments", 3: "unimplemented",
               4: "iterator_ends", 5: "runtime_error", 6: "not_required"}
DNNL_ISA = {0x0: "all", 0x1: "sse41", 0x3: "avx", 0x7: "avx2", 0xf: "avx512_mic", 0x1f: "avx512_mic_4ops",
            0x27: "avx512_core", 0x67: "avx512_core_vnni", 0xe7: "avx512_core_bf16", 0x3e7: "avx512_core_amx",
            0x407: "avx2_vnni"}


class ExecArg(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_int), ("memory", ctypes.c_void_p)]


class DnnlError(RuntimeError):
    pass


def dnnl_ok(status, what):
    if status != DNNL_SUCCESS:
        raise DnnlError(f"{what}: dnnl status {status} ({DNNL_STATUS.get(status, '?')})")


class OneDNN:
    def __init__(self, threads):
        lib = ctypes.CDLL(DNNL_PATH)
        self.lib = lib
        vp, i64, f = ctypes.c_void_p, ctypes.c_int64, ctypes.c_float
        lib.dnnl_sgemm.argtypes = [ctypes.c_char, ctypes.c_char, i64, i64, i64, f, vp, i64, vp, i64, f, vp, i64]
        lib.dnnl_gemm_u8s8s32.argtypes = [ctypes.c_char, ctypes.c_char, ctypes.c_char, i64, i64, i64, f,
                                          vp, i64, ctypes.c_uint8, vp, i64, ctypes.c_int8, f, vp, i64, vp]
        lib.dnnl_memory_desc_init_by_tag.argtypes = [vp, ctypes.c_int, vp, ctypes.c_int, ctypes.c_int]
        lib.dnnl_matmul_desc_init.argtypes = [vp, vp, vp, vp, vp]
        lib.dnnl_primitive_desc_create.argtypes = [vp, vp, vp, vp, vp]
        lib.dnnl_reorder_primitive_desc_create.argtypes = [vp, vp, vp, vp, vp, vp]
        lib.dnnl_primitive_desc_query.argtypes = [vp, ctypes.c_int, ctypes.c_int, vp]
        lib.dnnl_primitive_create.argtypes = [vp, vp]
        lib.dnnl_memory_create.argtypes = [vp, vp, vp, vp]
        lib.dnnl_primitive_execute.argtypes = [vp, vp, ctypes.c_int, vp]
        lib.dnnl_stream_wait.argtypes = [vp]
        lib.dnnl_engine_create.argtypes = [vp, ctypes.c_int, ctypes.c_size_t]
        lib.dnnl_stream_create.argtypes = [vp, vp, ctypes.c_uint]
        for fn in ("dnnl_primitive_destroy", "dnnl_primitive_desc_destroy", "dnnl_memory_destroy"):
            getattr(lib, fn).argtypes = [vp]
        lib.dnnl_get_effective_cpu_isa.restype = ctypes.c_int

        class Version(ctypes.Structure):
            _fields_ = [("major", ctypes.c_int), ("minor", ctypes.c_int), ("patch", ctypes.c_int),
                        ("hash", ctypes.c_char_p), ("cpu_runtime", ctypes.c_uint), ("gpu_runtime", ctypes.c_uint)]
        lib.dnnl_version.restype = ctypes.POINTER(Version)
        v = lib.dnnl_version().contents
        if (v.major, v.minor) != (2, 6):
            # The struct sizes and enum values above are those of 2.6's headers (3.x made the memory
            # descriptor opaque); check them against /usr/include/oneapi/dnnl/dnnl_types.h first.
            raise SystemExit(f"oneDNN {v.major}.{v.minor}.{v.patch}: this script's constants are for 2.6")
        self.engine, self.stream = vp(), vp()
        dnnl_ok(lib.dnnl_engine_create(ctypes.byref(self.engine), DNNL_CPU, 0), "engine_create")
        dnnl_ok(lib.dnnl_stream_create(ctypes.byref(self.stream), self.engine, DNNL_STREAM_DEFAULT_FLAGS), "stream_create")
        gomp = ctypes.CDLL(GOMP_PATH)
        isa = lib.dnnl_get_effective_cpu_isa()
        self.info = {
            "library": loaded_path("libdnnl"),
            "version": f"{v.major}.{v.minor}.{v.patch}",
            "hash": (v.hash or b"").decode(),
            "cpu_runtime": {1: "seq", 2: "omp", 4: "tbb", 8: "threadpool"}.get(v.cpu_runtime, str(v.cpu_runtime)),
            "effective_cpu_isa": DNNL_ISA.get(isa, hex(isa)),
            "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS"),
            "omp_get_max_threads": gomp.omp_get_max_threads(),
            "DNNL_MAX_CPU_ISA": os.environ.get("DNNL_MAX_CPU_ISA"),
        }
        self.keep = []

    # -- helpers for the primitive API
    def md(self, dims, dtype, tag):
        buf = ctypes.create_string_buffer(SIZEOF_MEMORY_DESC)
        d = (ctypes.c_int64 * len(dims))(*dims)
        dnnl_ok(self.lib.dnnl_memory_desc_init_by_tag(buf, len(dims), d, dtype, tag), "memory_desc_init_by_tag")
        return buf

    def memory(self, md, array):
        mem = ctypes.c_void_p()
        dnnl_ok(self.lib.dnnl_memory_create(ctypes.byref(mem), md, self.engine, ptr(array)), "memory_create")
        self.keep.append(("mem", mem))
        return mem

    def primitive(self, pd):
        prim = ctypes.c_void_p()
        dnnl_ok(self.lib.dnnl_primitive_create(ctypes.byref(prim), pd), "primitive_create")
        self.keep.append(("prim", prim))
        return prim

    def impl_name(self, pd):
        s = ctypes.c_char_p()
        dnnl_ok(self.lib.dnnl_primitive_desc_query(pd, DNNL_QUERY_IMPL_INFO_STR, 0, ctypes.byref(s)), "query impl_info_str")
        return s.value.decode()

    def executor(self, prim, args):
        arr = (ExecArg * len(args))(*[ExecArg(a, m) for a, m in args])
        self.keep.append(("args", arr))
        lib, stream, n = self.lib, self.stream, len(args)

        def run():
            st = lib.dnnl_primitive_execute(prim, stream, n, arr)
            if st != DNNL_SUCCESS:
                raise DnnlError(f"primitive_execute: {st}")
            lib.dnnl_stream_wait(stream)
        return run

    def release(self):
        for kind, h in reversed(self.keep):
            if kind == "prim":
                self.lib.dnnl_primitive_destroy(h)
            elif kind == "pd":
                self.lib.dnnl_primitive_desc_destroy(h)
            elif kind == "mem":
                self.lib.dnnl_memory_destroy(h)
        self.keep = []

    def matmul(self, ta, tb, m, n, k, a, b, c, dt_a, dt_b, dt_c):
        """Matmul primitive C[m,n] = op(A) op(B), operands as stored (A is k x m when ta)."""
        src = self.md([m, k], dt_a, DNNL_TAG_BA if ta else DNNL_TAG_AB)
        wei = self.md([k, n], dt_b, DNNL_TAG_BA if tb else DNNL_TAG_AB)
        dst = self.md([m, n], dt_c, DNNL_TAG_AB)
        desc = ctypes.create_string_buffer(SIZEOF_MATMUL_DESC)
        dnnl_ok(self.lib.dnnl_matmul_desc_init(desc, src, wei, None, dst), "matmul_desc_init")
        pd = ctypes.c_void_p()
        dnnl_ok(self.lib.dnnl_primitive_desc_create(ctypes.byref(pd), desc, None, self.engine, None), "primitive_desc_create(matmul)")
        self.keep.append(("pd", pd))
        impl = self.impl_name(pd)
        prim = self.primitive(pd)
        run = self.executor(prim, [(DNNL_ARG_SRC, self.memory(src, a)), (DNNL_ARG_WEIGHTS, self.memory(wei, b)),
                                   (DNNL_ARG_DST, self.memory(dst, c))])
        return run, impl

    def reorder(self, dims, tag, src_arr, dst_arr, dt_src, dt_dst):
        smd, dmd = self.md(dims, dt_src, tag), self.md(dims, dt_dst, tag)
        pd = ctypes.c_void_p()
        dnnl_ok(self.lib.dnnl_reorder_primitive_desc_create(ctypes.byref(pd), smd, self.engine, dmd, self.engine, None),
                "reorder_primitive_desc_create")
        self.keep.append(("pd", pd))
        impl = self.impl_name(pd)
        prim = self.primitive(pd)
        return self.executor(prim, [(DNNL_ARG_FROM, self.memory(smd, src_arr)), (DNNL_ARG_TO, self.memory(dmd, dst_arr))]), impl

    # -- the paths
    def prepare(self, path, ta, tb, m, n, k, rng):
        self.release()
        a_shape = (k, m) if ta else (m, k)
        b_shape = (n, k) if tb else (k, n)
        tr = lambda t: b"T" if t else b"N"
        if path in ("dnnl-sgemm", "dnnl-f32-matmul", "dnnl-bf16-matmul"):
            a, b = aligned(a_shape, np.float32), aligned(b_shape, np.float32)
            a[...] = rng.standard_normal(a_shape, dtype=np.float32)
            b[...] = rng.standard_normal(b_shape, dtype=np.float32)
            c = aligned((m, n), np.float32)
            extra = {}
            if path == "dnnl-sgemm":
                args = (tr(ta), tr(tb), m, n, k, 1.0, ptr(a), a_shape[1], ptr(b), b_shape[1], 0.0, ptr(c), n)
                lib = self.lib

                def fn():
                    st = lib.dnnl_sgemm(*args)
                    if st != DNNL_SUCCESS:
                        raise DnnlError(f"dnnl_sgemm: {st}")
                extra["impl"] = "dnnl_sgemm (not queryable)"
            elif path == "dnnl-f32-matmul":
                fn, extra["impl"] = self.matmul(ta, tb, m, n, k, a, b, c, DNNL_F32, DNNL_F32, DNNL_F32)
            else:
                a16, b16 = aligned(a_shape, np.uint16), aligned(b_shape, np.uint16)
                a16[...] = to_bf16_bits(a)
                b16[...] = to_bf16_bits(b)
                fn, extra["impl"] = self.matmul(ta, tb, m, n, k, a16, b16, c, DNNL_BF16, DNNL_BF16, DNNL_F32)
                # The conversions an f32 engine would add per GEMM: both inputs f32 -> bf16.
                ca, cb = aligned(a_shape, np.uint16), aligned(b_shape, np.uint16)
                ra, extra["reorder_impl"] = self.reorder(list(a_shape), DNNL_TAG_AB, a, ca, DNNL_F32, DNNL_BF16)
                rb, _ = self.reorder(list(b_shape), DNNL_TAG_AB, b, cb, DNNL_F32, DNNL_BF16)

                def cvt():
                    ra()
                    rb()
                extra["convert"] = cvt
                extra["convert_check"] = lambda: bool(np.array_equal(ca, a16) and np.array_equal(cb, b16))

            def check(rows, cols):
                got = c[np.ix_(rows, cols)]
                out = {"rel_err_vs_f64": rel_err(got, reference_block(a, b, ta, tb, rows, cols))}
                if path == "dnnl-bf16-matmul":
                    out["rel_err_vs_f64_of_bf16_inputs"] = rel_err(
                        got, reference_block(from_bf16_bits(a16), from_bf16_bits(b16), ta, tb, rows, cols))
                return out
            return fn, check, extra
        if path in ("dnnl-u8s8s32", "dnnl-int8-matmul"):
            a, b = aligned(a_shape, np.uint8), aligned(b_shape, np.int8)
            a[...] = rng.integers(0, 256, a_shape, dtype=np.uint8)
            b[...] = rng.integers(-128, 128, b_shape, dtype=np.int8)
            c = aligned((m, n), np.int32)
            extra = {}
            if path == "dnnl-u8s8s32":
                co = aligned((1,), np.int32)
                co[0] = 0
                args = (tr(ta), tr(tb), b"F", m, n, k, 1.0, ptr(a), a_shape[1], 0, ptr(b), b_shape[1], 0, 0.0,
                        ptr(c), n, ptr(co))
                lib = self.lib
                extra["keep"] = co

                def fn():
                    st = lib.dnnl_gemm_u8s8s32(*args)
                    if st != DNNL_SUCCESS:
                        raise DnnlError(f"dnnl_gemm_u8s8s32: {st}")
                extra["impl"] = "dnnl_gemm_u8s8s32 (not queryable)"
            else:
                fn, extra["impl"] = self.matmul(ta, tb, m, n, k, a, b, c, DNNL_U8, DNNL_S8, DNNL_S32)

            def check(rows, cols):
                ref = reference_block(a, b, ta, tb, rows, cols)      # exact in float64 (|sum| < 2^53)
                diff = np.abs(c[np.ix_(rows, cols)].astype(np.float64) - ref)
                return {"max_abs_err": float(diff.max()), "exact": bool(diff.max() == 0), "rel_err_vs_f64": rel_err(c[np.ix_(rows, cols)], ref)}
            return fn, check, extra
        raise SystemExit(f"unknown path {path}")


def worker(spec):
    path, threads = spec["path"], spec["threads"]
    rng = np.random.default_rng(1234)
    lib = OpenBLAS(threads) if path == "openblas" else OneDNN(threads)
    results = []
    for row in spec["shapes"]:
        group, name, p, ta, tb, m, n, k, count = row
        res = {"group": group, "name": name, "pass": p, "transA": ta, "transB": tb, "M": m, "N": n, "K": k, "count": count}
        try:
            if path == "openblas":
                fn, check, extra = lib.prepare(ta, tb, m, n, k, rng)
            else:
                fn, check, extra = lib.prepare(path, ta, tb, m, n, k, rng)
            samples, calls = time_call(fn, spec["repeats"], spec["min_sample_ms"])
            res.update(check(sample_index(m, rng), sample_index(n, rng)))
            flop = 2.0 * m * n * k
            res.update({"impl": extra.get("impl"), "calls_per_sample": calls, "seconds": samples,
                        "best_s": min(samples), "median_s": statistics.median(samples),
                        "best_gflops": flop / min(samples) / 1e9, "median_gflops": flop / statistics.median(samples) / 1e9})
            if "convert" in extra:
                cs, _ = time_call(extra["convert"], spec["repeats"], spec["min_sample_ms"])
                res.update({"reorder_impl": extra["reorder_impl"], "convert_seconds": cs,
                            "convert_median_s": statistics.median(cs),
                            "convert_matches_numpy_rounding": extra["convert_check"](),
                            "median_gflops_incl_convert": flop / (statistics.median(samples) + statistics.median(cs)) / 1e9,
                            "best_gflops_incl_convert": flop / (min(samples) + min(cs)) / 1e9})
        except DnnlError as e:
            res["error"] = str(e)
        results.append(res)
        if path != "openblas":
            lib.release()
    info = dict(lib.info)
    if path == "openblas":
        info["corename_after"] = lib.lib.openblas_get_corename().decode()
        info["num_threads_after"] = lib.lib.openblas_get_num_threads()
    json.dump({"path": path, "threads": threads, "info": info, "results": results}, sys.stdout)


# ---------------------------------------------------------------------------------------------
# Driver


def configs(args):
    out = []
    threads = [int(t) for t in args.threads.split(",")]
    for path in args.paths.split(","):
        if path not in ALL_PATHS:
            raise SystemExit(f"unknown path {path}; known: {', '.join(ALL_PATHS)}")
        if path == "openblas":
            seen = set()
            for ct in args.openblas_coretypes.split(","):
                value = os.environ.get("OPENBLAS_CORETYPE") if ct == "env" else (None if ct == "auto" else ct)
                if value in seen:
                    continue
                seen.add(value)
                for t in threads:
                    out.append((f"openblas[{value or 'auto'}]", path, t, value))
        else:
            for t in threads:
                out.append((path, path, t, None))

    return out


def run_config(label, path, threads, coretype, shapes, args):
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads) if path != "openblas" else "1"
    env["OPENBLAS_NUM_THREADS"] = str(threads) if path == "openblas" else "1"
    if path == "openblas":
        env.pop("OPENBLAS_CORETYPE", None)
        if coretype:
            env["OPENBLAS_CORETYPE"] = coretype
    spec = {"path": path, "threads": threads, "shapes": shapes, "repeats": args.repeats, "min_sample_ms": args.min_sample_ms}
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", json.dumps(spec)],
                       env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        return {"label": label, "path": path, "threads": threads, "failed": f"exit status {p.returncode}",
                "stderr": p.stderr[-2000:], "wall_s": wall}
    out = json.loads(p.stdout)
    out.update({"label": label, "wall_s": wall, "stderr": p.stderr[-2000:]})
    return out


SHORT = {"dnnl-sgemm": "dnnl sgemm", "dnnl-f32-matmul": "dnnl f32 mm", "dnnl-bf16-matmul": "dnnl bf16 mm",
         "dnnl-u8s8s32": "dnnl u8s8s32", "dnnl-int8-matmul": "dnnl int8 mm"}


def short(label):
    if label.startswith("openblas["):
        return "OB " + label[len("openblas["):-1]
    return SHORT.get(label, label)


def fmt(x, width=7):
    return f"{x:{width}.1f}" if x is not None else " " * (width - 1) + "-"


def print_tables(runs, shapes):
    by_thread = {}
    for r in runs:
        by_thread.setdefault(r["threads"], []).append(r)
    for t, rs in sorted(by_thread.items()):
        cols = []
        for r in rs:
            cols.append((short(r["label"]), r))
            if r["path"] == "dnnl-bf16-matmul" and "results" in r:
                cols.append(("bf16 incl. cvt", r))
        print(f"\n=== {t} thread(s): GFLOP/s (int8: GOP/s), best / median of the samples ===")
        head = f"{'group':8} {'name':18} {'pass':10} {'M':>7} {'N':>6} {'K':>7} {'x':>3}"
        print(head + "".join(f" | {c[0][:15]:>15}" for c in cols))
        for i, s in enumerate(shapes):
            group, name, p, ta, tb, m, n, k, count = s
            line = f"{group:8} {name[:18]:18} {p:10} {m:7d} {n:6d} {k:7d} {count if count else '':>3}"
            for (label, r) in cols:
                if "results" not in r:
                    line += f" | {'FAILED':>15}"
                    continue
                res = r["results"][i]
                if "error" in res:
                    line += f" | {'unimpl.':>15}"
                elif label == "bf16 incl. cvt":
                    line += f" | {fmt(res['best_gflops_incl_convert'])}/{fmt(res['median_gflops_incl_convert'])}"
                else:
                    line += f" | {fmt(res['best_gflops'])}/{fmt(res['median_gflops'])}"
            print(line)
        # Sum over one training step's whole-layer GEMMs (count x median time).
        line = f"{'one step, sum of count x median (ms)':<64}"
        for (label, r) in cols:
            if "results" not in r:
                line += f" | {'':>15}"
                continue
            tot, ok = 0.0, True
            for s, res in zip(shapes, r["results"]):
                if not s[8]:
                    continue
                if "error" in res:
                    ok = False
                    continue
                tot += s[8] * (res["median_s"] + (res["convert_median_s"] if label == "bf16 incl. cvt" else 0.0))
            line += f" | {tot * 1e3:13.1f}{'  ' if ok else ' *'}"
        print(line)
    print("\n(* = some shapes unimplemented, left out of the sum)")
    print("\n=== libraries, kernels and checks ===")
    for r in runs:
        if "results" not in r:
            print(f"{r['label']} @ {r['threads']}: FAILED {r.get('failed')}\n{r.get('stderr', '')}")
            continue
        impls = sorted({x.get("impl") for x in r["results"] if x.get("impl")})
        errs = [x.get("rel_err_vs_f64") for x in r["results"] if x.get("rel_err_vs_f64") is not None]
        line = f"{r['label']} @ {r['threads']} thread(s): {json.dumps(r['info'])}\n    impl: {impls}\n    max rel err vs f64: {max(errs) if errs else None:.3g}"
        if r["path"] == "dnnl-bf16-matmul":
            e2 = [x["rel_err_vs_f64_of_bf16_inputs"] for x in r["results"] if "rel_err_vs_f64_of_bf16_inputs" in x]
            cv = {x.get("reorder_impl") for x in r["results"] if x.get("reorder_impl")}
            same = all(x.get("convert_matches_numpy_rounding", True) for x in r["results"])
            line += f" (vs f64 of the bf16-rounded inputs: {max(e2):.3g}); reorder impl {sorted(cv)}, matches numpy RNE: {same}"
        if r["path"] in ("dnnl-u8s8s32", "dnnl-int8-matmul"):
            line += f"; all exact: {all(x.get('exact') for x in r['results'] if 'error' not in x)}"
        unimpl = [f"{x['name']}/{x['pass']}" for x in r["results"] if "error" in x]
        if unimpl:
            line += f"\n    errors: {unimpl[:6]}{' ...' if len(unimpl) > 6 else ''}: {r['results'][[('error' in x) for x in r['results']].index(True)]['error']}"
        print(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--paths", default=",".join(ALL_PATHS))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--openblas-coretypes", default="env,auto",
                    help="kernel sets for OpenBLAS: env (the environment's OPENBLAS_CORETYPE), auto (unset) or names")
    ap.add_argument("--passes", default="fwd,bwd_data,bwd_weight")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--min-sample-ms", type=float, default=20.0)
    ap.add_argument("--no-blocks", action="store_true", help="leave out the engine's per-block GEMM shapes")
    ap.add_argument("--tiny", action="store_true", help="tiny shapes, 2 samples of 1 call: a smoke test")
    ap.add_argument("--only", help="comma-separated groups (backbone, fpn, head, block, peak) or layer names (b2, out3, ...)")
    ap.add_argument("--list-shapes", action="store_true")
    ap.add_argument("--json", help="write every figure to this file")
    args = ap.parse_args()
    if args.worker:
        worker(json.loads(args.worker))
        return
    if args.tiny:
        args.repeats, args.min_sample_ms = min(args.repeats, 2), 0.0
    shapes = shape_list(args)
    if args.only:
        keep = set(args.only.split(","))
        shapes = [s for s in shapes if s[0] in keep or keep & set(s[1].split(","))]
    if args.list_shapes:
        for s in shapes:
            print(s)
        return
    print(f"host: {platform.node()} {platform.machine()}, {os.cpu_count()} CPUs; load average {os.getloadavg()}")
    print(f"environment OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE')!r}")
    runs = []
    for (label, path, threads, coretype) in configs(args):
        print(f"running {label} at {threads} thread(s) ...", file=sys.stderr, flush=True)
        runs.append(run_config(label, path, threads, coretype, shapes, args))
    print_tables(runs, shapes)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"argv": sys.argv, "date": time.strftime("%Y-%m-%d %H:%M:%S"), "host": platform.node(),
                       "loadavg_at_end": os.getloadavg(), "environment_OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
                       "shapes": shapes, "runs": runs}, f, indent=1)
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
