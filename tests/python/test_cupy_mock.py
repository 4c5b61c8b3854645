"""sgcc.cupy against a stand-in for CuPy (runs everywhere; test_cupy.py runs
the real thing on a GPU): the options given to NVRTC, the RawModule that
carries what was bound, NVRTC run by build itself, the spec-constant checks
made before CuPy is imported, the dynamic-shared-memory layout of `local T *`
parameters (16-byte aligned byte offsets, as sgrt's CUDA launch) and the
argument checks and conversions."""
import sys
import types

import numpy as np
import pytest

import sgcc
from conftest import KERNELS


class RawModule:
    # no __dict__, as in Cython
    __slots__ = ("code", "options", "backend", "launches", "compilations")

    def __init__(self, *, code=None, options=(), backend="nvrtc"):
        self.code, self.options, self.backend, self.launches = code, options, backend, []
        self.compilations = 0

    def compile(self, log_stream=None):
        self.compilations += 1

    def get_function(self, name):
        assert f"void {name}(" in self.code
        if not self.compilations:   # what CuPy does: compile on the first fetch
            self.compile()
        return lambda grid, block, args, **kw: self.launches.append((name, grid, block,
                                                                      args, kw))


class ndarray:
    def __init__(self, n, dtype):
        self.dtype, self.size = np.dtype(dtype), n


def fake_cupy(cc="90"):
    cp = types.ModuleType("cupy")
    cp.RawModule, cp.ndarray = RawModule, ndarray
    device = types.SimpleNamespace(id=0, compute_capability=cc)
    runtime = types.SimpleNamespace(getDeviceProperties=lambda i: {
        "name": b"Fake GPU", "warpSize": 32, "maxThreadsPerBlock": 1024})
    cp.cuda = types.SimpleNamespace(Device=lambda *a: device, runtime=runtime)
    return cp


@pytest.fixture
def cupy(monkeypatch):
    cp = fake_cupy()
    monkeypatch.setitem(sys.modules, "cupy", cp)
    return cp


def test_build_options_and_module(cupy):
    import sgcc.cupy as sgcu
    m = sgcc.compile(path=KERNELS / "specs.sgc")
    raw = sgcu.build(m, spec={"alpha": 0.1, "s_int": -2**31}, options="-lineinfo")
    assert isinstance(raw, cupy.RawModule) and raw.code == m.cuda_source
    # CUDA: the subgroup strategy (warps), constants in ID order, user options last;
    # no --gpu-architecture (CuPy adds -arch itself).
    assert raw.options == ("-DSGC_WG_STRATEGY=3", "-DSGC_SPEC_5=(-2147483647-1)",
                           "-DSGC_SPEC_42=0x1.99999ap-4f", "-lineinfo")
    assert raw.sgcc_module is m and raw.sgcc_options == list(raw.options)
    # NVRTC ran inside build, before any kernel was fetched.
    assert raw.compilations == 1
    assert sgcu.build_options(m, spec={"alpha": 0.1, "s_int": -2**31},
                              options="-lineinfo") == list(raw.options)


WG_SOURCE = ("spec_const uint wg = 64;\n"
             "spec_const bool flag = false;\n"
             "[[reqd_work_group_size(wg, 1, 1)]]\n"
             "kernel void k(global uint *o) { o[get_global_id(0)] = flag; }\n")


def test_spec_values_checked_without_cupy(monkeypatch):
    """Every spec-constant check runs in plain Python before CuPy is
    imported: here CuPy cannot be imported at all, so a bad value is a
    SpecConstantError and only a good one reaches the import."""
    import sgcc.cupy as sgcu
    monkeypatch.setitem(sys.modules, "cupy", None)   # `import cupy` raises ImportError
    specs = sgcc.compile(path=KERNELS / "specs.sgc")
    wg = sgcc.compile(source=WG_SOURCE)
    bad = [
        (specs, {"alpha": 1.0, "nope": 1}, "no specialization constant named 'nope'"),
        (specs, {"alpha": 1.0, 999: 1}, "with ID 999"),
        (specs, {"alpha": 1.0, "s_int": 2**31}, r"s_int.*2147483648 is out of range"),
        (specs, {"alpha": 1.0, "s_uchar": -1}, r"s_uchar.*-1 is out of range \(0 \.\. 255\)"),
        (specs, {"alpha": 1.0, "s_int": 1.5}, "expected an integer, got float"),
        (specs, {"alpha": "0.5"}, "expected a number, got str"),
        (specs, {"alpha": 1e39}, "above FLT_MAX"),
        (specs, {"alpha": 1.0, "s_bool": 2}, "expected True/False"),
        (specs, {}, r"'alpha' \(ID 42\) of module 'specs' is required and has no value"),
        (wg, {"wg": 0}, r"kernel 'k' of module 'module' requires work-group size \(0, 1, 1\) "
                        r"\(reqd_work_group_size set by specialization constant 'wg'\): every "
                        r"dimension must be at least 1"),
    ]
    for module, spec, message in bad:
        with pytest.raises(sgcc.SpecConstantError, match=message):
            sgcu.build(module, spec=spec)
        with pytest.raises(sgcc.SpecConstantError, match=message):
            sgcu.check_spec(module, spec)
    bound = sgcu.check_spec(wg, {"wg": 128, "flag": np.True_})
    assert {i: text for i, (_, text, _) in bound.items()} == {0: "128u", 1: "1"}
    with pytest.raises(ImportError):
        sgcu.build(wg, spec={"wg": 128, "flag": np.True_})


def test_work_group_size_above_threads_per_block(cupy):
    import sgcc.cupy as sgcu
    m = sgcc.compile(source=WG_SOURCE)
    with pytest.raises(sgcc.SpecConstantError, match=r"requires work-group size \(2048, 1, 1\) "
                       r".*: 2048 work-items, more than device 'Fake GPU' allows \(1024\)"):
        sgcu.build(m, spec={"wg": 2048})
    raw = sgcu.build(m, spec={"wg": 1024})
    assert "-DSGC_SPEC_0=1024u" in raw.options and raw.compilations == 1


def test_local_memory_layout_and_checks(cupy):
    import sgcc.cupy as sgcu
    m = sgcc.compile(source="kernel void k(global float *o, local char *a, float f, "
                            "local double *b, local int *c) { o[0] = f; }")
    raw = sgcu.build(m)
    k = sgcu.Kernel(raw, "k")
    out = cupy.ndarray(4, np.float32)
    k((1,), (32,), (out, sgcu.LocalMemory(3), np.float32(1), sgcu.LocalMemory(40),
                    sgcu.LocalMemory(8)), shared_mem=100)
    (name, grid, block, args, kw), = raw.launches
    assert [int(a) for a in (args[1], args[3], args[4])] == [0, 16, 64]
    assert all(isinstance(args[i], np.uint32) for i in (1, 3, 4))
    assert kw == {"shared_mem": 72 + 100}
    # A Python float (or int) for a float parameter becomes a numpy.float32.
    for given in (1.5, 3):
        k((1,), (32,), (out, sgcu.LocalMemory(3), given, sgcu.LocalMemory(40),
                        sgcu.LocalMemory(8)))
        passed = raw.launches[-1][3][2]
        assert type(passed) is np.float32 and passed == np.float32(given)
    with pytest.raises(sgcc.ArgumentError, match=r"argument 2 \('f'\).*1e\+39 is out of range "
                       r"\(magnitude above FLT_MAX\)"):
        k((1,), (32,), (out, sgcu.LocalMemory(3), 1e39, sgcu.LocalMemory(4),
                        sgcu.LocalMemory(4)))
    assert repr(k) == ("<sgcc.cupy.Kernel kernel void k(global float *o, local char *a, "
                       "float f, local double *b, local int *c) of module 'module'>")
    with pytest.raises(sgcc.ArgumentError, match=r"argument 2 \('f'\) of kernel 'k' is a "
                       r"by-value parameter of type float \(4 bytes\): a numpy.float64"):
        k((1,), (32,), (out, sgcu.LocalMemory(3), np.float64(1), sgcu.LocalMemory(4),
                        sgcu.LocalMemory(4)))
    with pytest.raises(sgcc.ArgumentError, match="cupy.ndarray of int32 was passed"):
        k((1,), (32,), (cupy.ndarray(4, np.int32), sgcu.LocalMemory(3), np.float32(1),
                        sgcu.LocalMemory(4), sgcu.LocalMemory(4)))
    with pytest.raises(sgcc.ArgumentError, match="LocalMemory"):
        k((1,), (32,), (out, 3, np.float32(1), sgcu.LocalMemory(4), sgcu.LocalMemory(4)))
    with pytest.raises(sgcc.ArgumentError, match=r"takes 5 argument\(s\)"):
        k((1,), (32,), (out,))


def test_refusals(cupy, monkeypatch):
    import sgcc.cupy as sgcu
    barrier = sgcc.compile(path=KERNELS.parent.parent.parent / "samples" / "barriers" /
                           "ring_exchange.sgc")
    monkeypatch.setitem(sys.modules, "cupy", fake_cupy(cc="75"))
    assert barrier.requires.split_barriers
    with pytest.raises(sgcc.UnsupportedError, match=r"needs split barriers \(mbarrier, sm_80 "
                       r"or newer\), not supported on device 'Fake GPU'"):
        sgcu.build(barrier)   # sm_75
    with pytest.warns(sgcc.CompileWarning):
        m = sgcc.compile(source="[[reqd_sub_group_size(16)]]\n"
                                "kernel void k16(global int *o) { o[0] = 1; }\n"
                                "kernel void k(global int *o) { o[0] = 2; }\n")
    raw = sgcu.build(m)
    with pytest.raises(sgcc.UnsupportedError, match="cannot run on cuda"):
        sgcu.Kernel(raw, "k16")
    sgcu.Kernel(raw, "k")
