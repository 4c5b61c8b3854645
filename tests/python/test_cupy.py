"""sgcc.cupy on a CUDA GPU (skipped without CuPy or a device; run on the GPU
machine by tests/python/gpu_run.sh): kernels checked against NumPy, spec
constants by name and ID, dynamic local memory, refusals, argument checks."""
import numpy as np
import pytest

import sgcc
from conftest import KERNELS

cp = pytest.importorskip("cupy")
try:
    if cp.cuda.runtime.getDeviceCount() < 1:
        pytest.skip("no CUDA device", allow_module_level=True)
except Exception as e:   # noqa: BLE001 - CuPy without a driver raises various errors
    pytest.skip(f"no CUDA device ({e})", allow_module_level=True)
import sgcc.cupy as sgcu  # noqa: E402

LOCAL = 128


def test_ballot_and_work_group_kernels():
    raw = sgcu.build(sgcc.compile(path=KERNELS / "ballot.sgc"))
    rng = np.random.default_rng(2)
    x = rng.integers(-100, 100, 4 * LOCAL, dtype=np.int32)
    d_x = cp.asarray(x)
    out, sg = cp.zeros_like(d_x), cp.zeros(x.size, cp.uint32)
    sgcu.Kernel(raw, "ballot_sums")((x.size // LOCAL,), (LOCAL,), (d_x, out, sg, np.int32(10)))
    warp = np.arange(x.size) // 32
    pred = x > 10
    expect = np.array([x[(warp == warp[i]) & (pred == pred[i])].sum() for i in range(x.size)])
    np.testing.assert_array_equal(cp.asnumpy(out), expect)
    np.testing.assert_array_equal(cp.asnumpy(sg), (np.arange(x.size) % LOCAL) // 32)
    raw = sgcu.build(sgcc.compile(path=KERNELS / "workgroup.sgc"), spec={"scale": 3})
    sums = cp.zeros(x.size // LOCAL, cp.int32)
    sgcu.Kernel(raw, "group_sums")((x.size // LOCAL,), (LOCAL,), (d_x, sums))
    np.testing.assert_array_equal(cp.asnumpy(sums), 3 * x.reshape(-1, LOCAL).sum(axis=1))


def test_local_memory_argument():
    raw = sgcu.build(sgcc.compile(path=KERNELS / "workgroup.sgc"), spec={0: 1})
    x = cp.linspace(-1, 1, 2 * LOCAL, dtype=cp.float32)
    out = cp.zeros_like(x)
    k = sgcu.Kernel(raw, "scaled_copy")
    k((2,), (LOCAL,), (x, out, np.float32(2.5), sgcu.LocalMemory(4 * LOCAL)))
    np.testing.assert_array_equal(cp.asnumpy(out), cp.asnumpy(x) * np.float32(2.5))
    with pytest.raises(sgcc.ArgumentError, match="a numpy.float64 was passed"):
        k((2,), (LOCAL,), (x, out, np.float64(2.5), sgcu.LocalMemory(4 * LOCAL)))
    with pytest.raises(sgcc.ArgumentError, match="LocalMemory"):
        k((2,), (LOCAL,), (x, out, np.float32(2.5), 512))
    with pytest.raises(sgcc.ArgumentError, match="cupy.ndarray of int32"):
        k((2,), (LOCAL,), (cp.zeros(4, cp.int32), out, np.float32(2.5),
                           sgcu.LocalMemory(4 * LOCAL)))


def test_spec_constants_exact():
    m = sgcc.compile(path=KERNELS / "specs.sgc")
    raw = sgcu.build(m, spec={"s_float": -0.0, 42: 2.0**-149, "s_long": -2**63,
                              "s_ulong": 2**64 - 1})
    f = cp.zeros(2, cp.float32)
    sgcu.Kernel(raw, "read_floats")((1,), (1,), (f,))
    assert list(cp.asnumpy(f).view(np.uint32)) == [0x80000000, 1]
    ints, big = cp.zeros(8, cp.int64), cp.zeros(1, cp.uint64)
    sgcu.Kernel(raw, "read_ints")((1,), (1,), (ints, big))
    assert int(cp.asnumpy(ints)[7]) == -2**63 and int(cp.asnumpy(big)[0]) == 2**64 - 1
    with pytest.raises(sgcc.SpecConstantError, match="required"):
        sgcu.build(m)


def test_kernel_left_out_of_cuda():
    """sgcc leaves a kernel CUDA cannot run out of the CUDA source; the
    module still builds, and asking for that kernel is refused as sgrt does."""
    with pytest.warns(sgcc.CompileWarning, match="left out of the CUDA C output"):
        m = sgcc.compile(source="[[reqd_sub_group_size(16)]]\n"
                                "kernel void k16(global int *o) { o[0] = 1; }\n"
                                "kernel void k(global int *o) { o[0] = 2; }\n")
    raw = sgcu.build(m)
    with pytest.raises(sgcc.UnsupportedError, match=r"kernel 'k16' of module 'module' cannot "
                       r"run on cuda: requires sub-group size 16"):
        sgcu.Kernel(raw, "k16")
    out = cp.zeros(1, cp.int32)
    sgcu.Kernel(raw, "k")((1,), (1,), (out,))
    assert int(out[0]) == 2


def test_build_fails_at_build():
    """NVRTC runs inside build (CuPy would compile at the first
    get_function), and bad spec-constant values fail there too."""
    m = sgcc.compile(path=KERNELS / "workgroup.sgc")
    with pytest.raises(cp.cuda.compiler.CompileException):   # `scale` becomes `)`
        sgcu.build(m, options=["-DSGC_SPEC_0=)"])
    with pytest.raises(sgcc.SpecConstantError, match="out of range"):
        sgcu.build(m, spec={"scale": 2**31})
    with pytest.raises(sgcc.SpecConstantError, match="no specialization constant named"):
        sgcu.build(m, spec={"sclae": 2})
    wg = sgcc.compile(source="spec_const uint wg = 64;\n"
                             "[[reqd_work_group_size(wg, 1, 1)]]\n"
                             "kernel void k(global uint *o) "
                             "{ o[get_global_id(0)] = get_local_size(0); }\n")
    for bad in (0, 4096):
        with pytest.raises(sgcc.SpecConstantError, match="requires work-group size"):
            sgcu.build(wg, spec={"wg": bad})
    raw = sgcu.build(wg, spec={"wg": 128})
    out = cp.zeros(256, cp.uint32)
    sgcu.Kernel(raw, "k")((2,), (128,), (out,))
    assert (cp.asnumpy(out) == 128).all()


def test_python_scalars_and_reprs():
    raw = sgcu.build(sgcc.compile(path=KERNELS / "workgroup.sgc"))
    x = cp.linspace(-1, 1, 2 * LOCAL, dtype=cp.float32)
    out = cp.zeros_like(x)
    k = sgcu.Kernel(raw, "scaled_copy")
    for factor in (2.5, -3):   # a Python float and int, converted to numpy.float32
        k((2,), (LOCAL,), (x, out, factor, sgcu.LocalMemory(4 * LOCAL)))
        np.testing.assert_array_equal(cp.asnumpy(out), cp.asnumpy(x) * np.float32(factor))
    with pytest.raises(sgcc.ArgumentError, match="magnitude above FLT_MAX"):
        k((2,), (LOCAL,), (x, out, 1e39, sgcu.LocalMemory(4 * LOCAL)))
    assert repr(k).startswith("<sgcc.cupy.Kernel kernel void scaled_copy(global const float")
    caps = sgcu.device_caps()
    assert repr(caps).startswith(f"<sgcc DeviceCaps '{caps.name}': cuda gpu, tier cuda; sm_")
    assert caps.max_work_group_size == cp.cuda.runtime.getDeviceProperties(0)[
        "maxThreadsPerBlock"]
