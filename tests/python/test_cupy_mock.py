"""sgcc.cupy against a stand-in for CuPy (runs everywhere; test_cupy.py runs
the real thing on a GPU): the options given to NVRTC, the RawModule that
carries what was bound, the dynamic-shared-memory layout of `local T *`
parameters (16-byte aligned byte offsets, as sgrt's CUDA launch) and the
argument checks."""
import sys
import types

import numpy as np
import pytest

import sgcc
from conftest import KERNELS


class RawModule:
    __slots__ = ("code", "options", "backend", "launches")   # no __dict__, as in Cython

    def __init__(self, *, code=None, options=(), backend="nvrtc"):
        self.code, self.options, self.backend, self.launches = code, options, backend, []

    def get_function(self, name):
        assert f"void {name}(" in self.code
        return lambda grid, block, args, **kw: self.launches.append((name, grid, block,
                                                                      args, kw))


class ndarray:
    def __init__(self, n, dtype):
        self.dtype, self.size = np.dtype(dtype), n


def fake_cupy(cc="90"):
    cp = types.ModuleType("cupy")
    cp.RawModule, cp.ndarray = RawModule, ndarray
    device = types.SimpleNamespace(id=0, compute_capability=cc)
    runtime = types.SimpleNamespace(getDeviceProperties=lambda i: {"name": b"Fake GPU",
                                                                   "warpSize": 32})
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
