"""Every spec-constant type bound through sgcc.pyopencl and read back from
the device bit for bit: integer limits, float/double edge values (0.1,
-0.0, denormals, +-max), by name and by explicit ID; the defaults when
nothing is bound."""
import struct

import numpy as np
import pytest

import sgcc
from conftest import KERNELS

cl = pytest.importorskip("pyopencl")
import sgcc.pyopencl as sgcl  # noqa: E402


def run(ctx, queue, prog, name, *outputs):
    """Launches kernel `name` on one work-item with one fresh buffer per
    (dtype, count) of `outputs`; returns their contents."""
    arrays = [np.empty(n, dtype) for dtype, n in outputs]
    bufs = [cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes) for a in arrays]
    sgcl.Kernel(prog, name)(queue, (1,), (1,), *bufs)
    for a, b in zip(arrays, bufs):
        cl.enqueue_copy(queue, a, b)
    return arrays


def read_ints(ctx, queue, prog):
    ints, big = run(ctx, queue, prog, "read_ints", (np.int64, 8), (np.uint64, 1))
    return [int(v) for v in ints] + [int(big[0])]


@pytest.fixture(scope="module")
def specs():
    return sgcc.compile(path=KERNELS / "specs.sgc")


INT_NAMES = ["s_bool", "s_char", "s_uchar", "s_short", "s_ushort", "s_int", "s_uint",
             "s_long", "s_ulong"]
INT_DEFAULTS = [1, -5, 200, -300, 60000, -7, 4000000000, -9000000000, 18000000000000000000]
INT_LOW = [False, -128, 0, -32768, 0, -2**31, 0, -2**63, 0]
INT_HIGH = [True, 127, 255, 32767, 65535, 2**31 - 1, 2**32 - 1, 2**63 - 1, 2**64 - 1]


def test_integer_defaults_and_limits(cl_env, specs):
    ctx, queue, device = cl_env
    prog = sgcl.build(ctx, specs, spec={"alpha": 1.0})
    assert read_ints(ctx, queue, prog) == INT_DEFAULTS
    for values in (INT_LOW, INT_HIGH):
        prog = sgcl.build(ctx, specs, spec={"alpha": 1.0, **dict(zip(INT_NAMES, values))})
        assert read_ints(ctx, queue, prog) == [int(v) for v in values]


FLOATS = [0.1, -0.0, 2.0**-149, 2.0**-126 * 0.75, 3.4028234663852886e+38,
          -3.4028234663852886e+38, 1 / 3]


def f32_bits(values):
    return [struct.unpack("<I", struct.pack("<f", v))[0] for v in values]


@pytest.mark.parametrize("value", FLOATS)
def test_float_values(cl_env, specs, value):
    """s_float by name, alpha (explicit ID 42) by ID: both read back as the
    float32 nearest to the value, bits included (sign of zero, denormals)."""
    ctx, queue, device = cl_env
    prog = sgcl.build(ctx, specs, spec={"s_float": value, 42: -value})
    (out,) = run(ctx, queue, prog, "read_floats", (np.float32, 2))
    assert list(out.view(np.uint32)) == f32_bits([value, -value])


def test_float_default(cl_env, specs):
    ctx, queue, device = cl_env
    prog = sgcl.build(ctx, specs, spec={"alpha": 0.5})
    (out,) = run(ctx, queue, prog, "read_floats", (np.float32, 2))
    assert list(out.view(np.uint32)) == f32_bits([0.1, 0.5])


def test_required_constant_unset(cl_env, specs):
    ctx, queue, device = cl_env
    with pytest.raises(sgcc.SpecConstantError, match=r"specialization constant 'alpha' "
                       r"\(ID 42\) of module 'specs' is required and has no value"):
        sgcl.build(ctx, specs)


DOUBLES = [0.1, -0.0, 5e-324, 2.2250738585072014e-308 / 3, 1.7976931348623157e+308,
           -1.7976931348623157e+308]


def test_double_values(cl_env):
    ctx, queue, device = cl_env
    if not sgcl.device_caps(device).fp64:
        pytest.skip("device without fp64")
    m = sgcc.compile(path=KERNELS / "doubles.sgc")
    assert m.requires.fp64
    for value in [None] + DOUBLES:
        prog = sgcl.build(ctx, m, spec={} if value is None else {"s_double": value})
        (out,) = run(ctx, queue, prog, "read_double", (np.float64, 1))
        want = 0.1 if value is None else value
        assert struct.pack("<d", out[0]) == struct.pack("<d", want), value


def test_numpy_values(cl_env, specs):
    """NumPy scalars bind as Python numbers do, numpy.bool_ included."""
    ctx, queue, device = cl_env
    values = [np.False_, np.int8(-128), np.uint8(255), np.int16(-32768), np.uint16(65535),
              np.int32(-2**31), np.uint32(2**32 - 1), np.int64(-2**63), np.uint64(2**64 - 1)]
    prog = sgcl.build(ctx, specs, spec={"alpha": np.float32(0.5), **dict(zip(INT_NAMES, values))})
    assert read_ints(ctx, queue, prog) == INT_LOW[:1] + [int(v) for v in values[1:]]
    prog = sgcl.build(ctx, specs, spec={"alpha": 1.0, "s_bool": np.bool_(True)})
    assert read_ints(ctx, queue, prog)[0] == 1
