"""sgcc.pyopencl on the CPU OpenCL runtimes (Intel: khr tier; PoCL 3.1: wg
tier, no sub-groups): kernels run with results checked against NumPy,
sgrt's refusals, spec constants by name and by ID, argument checks and
conversions, the build options (-DSGC_WG_MAX_ITEMS on a large work-group)."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import sgcc
from conftest import KERNELS

cl = pytest.importorskip("pyopencl")
import sgcc.pyopencl as sgcl  # noqa: E402

LOCAL = 32


@pytest.fixture(scope="module")
def ballot():
    return sgcc.compile(path=KERNELS / "ballot.sgc")


@pytest.fixture(scope="module")
def groups():
    return sgcc.compile(path=KERNELS / "workgroup.sgc")


def ballot_reference(x, sub_group_of, threshold):
    """Sum over the work-items of the same work-group, sub-group and
    predicate, computed on the host."""
    out = np.empty_like(x)
    wg = np.arange(x.size) // LOCAL
    pred = x > threshold
    for i in range(x.size):
        same = (wg == wg[i]) & (sub_group_of == sub_group_of[i]) & (pred == pred[i])
        out[i] = x[same].sum()
    return out


def test_ballot_group_kernel(sub_group_env, ballot):
    ctx, queue, device = sub_group_env
    prog = sgcl.build(ctx, ballot)
    rng = np.random.default_rng(1)
    x = rng.integers(-100, 100, 4 * LOCAL, dtype=np.int32)
    mf = cl.mem_flags
    d_in = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    d_out = cl.Buffer(ctx, mf.WRITE_ONLY, x.nbytes)
    d_sg = cl.Buffer(ctx, mf.WRITE_ONLY, x.nbytes)
    k = sgcl.Kernel(prog, "ballot_sums")
    k(queue, (x.size,), (LOCAL,), d_in, d_out, d_sg, np.int32(10))
    out, sg = np.empty_like(x), np.empty(x.size, np.uint32)
    cl.enqueue_copy(queue, out, d_out)
    cl.enqueue_copy(queue, sg, d_sg)
    assert (sg < LOCAL).all()
    np.testing.assert_array_equal(out, ballot_reference(x, sg, 10))


def test_work_group_kernel(cl_env, groups):
    ctx, queue, device = cl_env
    module = groups
    x = np.arange(8 * LOCAL, dtype=np.int32) - 100
    mf = cl.mem_flags
    d_in = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    expect = x.reshape(-1, LOCAL).sum(axis=1).astype(np.int32)
    for spec, factor in (({}, 1), ({"scale": 3}, 3), ({0: -2}, -2)):
        prog = sgcl.build(ctx, module, spec=spec)
        d_out = cl.Buffer(ctx, mf.WRITE_ONLY, expect.nbytes)
        sgcl.kernels(prog).group_sums(queue, (x.size,), (LOCAL,), d_in, d_out)
        out = np.empty_like(expect)
        cl.enqueue_copy(queue, out, d_out)
        np.testing.assert_array_equal(out, expect * factor)


def test_local_memory_and_scalar_args(cl_env, groups):
    ctx, queue, device = cl_env
    prog = sgcl.build(ctx, groups)
    x = np.linspace(-1, 1, 2 * LOCAL).astype(np.float32)
    mf = cl.mem_flags
    d_in = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    d_out = cl.Buffer(ctx, mf.WRITE_ONLY, x.nbytes)
    k = sgcl.Kernel(prog, "scaled_copy")
    for factor in (np.float32(2.5), 2.5, -3):   # Python float and int: converted
        k(queue, (x.size,), (LOCAL,), d_in, d_out, factor, cl.LocalMemory(4 * LOCAL))
        out = np.empty_like(x)
        cl.enqueue_copy(queue, out, d_out)
        np.testing.assert_array_equal(out, x * np.float32(factor))


def test_refused_on_pocl(pocl_env, ballot):
    """PoCL 3.1 (this machine's) has no sub-groups: the wg tier refuses the
    ballot kernel; PoCL 5 (the GPU machine's) has sub-groups without the
    non-uniform extensions: the khr tier refuses it for that reason.  The
    expectation follows the device's capabilities, not its version."""
    ctx, queue, device = pocl_env
    caps = sgcl.device_caps(device)
    with pytest.raises(sgcc.UnsupportedError) as info:
        sgcl.build(ctx, ballot)
    if not caps.sub_groups:
        assert caps.tier == "wg"
        assert str(info.value) == (
            f"kernel 'ballot_sums' needs sub-groups (cl_khr_subgroups or cl_intel_subgroups), "
            f"not supported on device '{device.name}'")
    else:
        assert caps.tier == "khr" and not caps.non_uniform_groups
        assert str(info.value).startswith(
            "kernel 'ballot_sums' uses non-uniform groups (ballot, tangle or opportunistic)")


def test_tier_options(cl_env):
    ctx, queue, device = cl_env
    caps = sgcl.device_caps(device)
    module = sgcc.compile(source="kernel void k(global int *o) { o[0] = 1; }")
    opts = sgcl.build_options(device, module)
    assert isinstance(opts, list) and all(isinstance(o, str) for o in opts)
    assert any(o.startswith("-DSGC_WG_STRATEGY=") for o in opts)
    # As sgrt: the device's largest work-group, after the CPU define, before
    # the strategy; the module description lists it among the conditional options.
    wg_max = f"-DSGC_WG_MAX_ITEMS={device.max_work_group_size}"
    assert wg_max in opts and opts.index(wg_max) + 1 == \
        next(i for i, o in enumerate(opts) if o.startswith("-DSGC_WG_STRATEGY="))
    assert "-DSGC_WG_MAX_ITEMS=<n>" in [
        c["option"] for c in module.description["backends"]["opencl"]["conditional_options"]]
    # What Program.build takes, as it is; the same as build() uses.
    prog = cl.Program(ctx, module.opencl_source).build(options=opts)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4)
    prog.k(queue, (1,), (1,), buf)
    out = np.zeros(1, np.int32)
    cl.enqueue_copy(queue, out, buf)
    assert out[0] == 1
    assert sgcl.build(ctx, module).sgcc_options == opts
    if "NVIDIA" in device.platform.name:
        assert caps.tier == "nvptx" and "-DSGC_NV_PTX=1" in opts
        return
    assert "-DSGC_DEVICE_CPU=1" in opts and not any("SGC_NV_PTX" in o for o in opts)
    if "Intel" in device.platform.name:
        assert caps.tier == "khr" and caps.non_uniform_groups and caps.sub_group_sizes
        assert caps.opencl_c[0] == 3 and "-cl-std=CL3.0" in opts
    else:   # PoCL: the wg tier without sub-groups (3.1), the khr tier with them (5)
        assert caps.tier == ("khr" if caps.sub_groups else "wg")


def test_argument_type_errors(intel_env, groups):
    ctx, queue, device = intel_env
    prog = sgcl.build(ctx, groups)
    k = sgcl.Kernel(prog, "scaled_copy")
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * LOCAL)
    loc = cl.LocalMemory(4 * LOCAL)
    g, l = (LOCAL,), (LOCAL,)
    with pytest.raises(sgcc.ArgumentError, match=r"takes 4 argument\(s\) "
                       r"\(in, out, factor, stage\), 3 given"):
        k(queue, g, l, buf, buf, np.float32(1))
    with pytest.raises(sgcc.ArgumentError, match=r"argument 2 \('factor'\) of kernel "
                       r"'scaled_copy' is a by-value parameter of type float \(4 bytes\): "
                       r"a numpy.float64 was passed"):
        k(queue, g, l, buf, buf, np.float64(1), loc)
    with pytest.raises(sgcc.ArgumentError, match="a numpy.float32 or a Python float or int "
                       "was expected, but a builtins.str"):
        k(queue, g, l, buf, buf, "1.0", loc)
    with pytest.raises(sgcc.ArgumentError, match=r"1e\+39 is out of range \(magnitude above "
                       r"FLT_MAX\)"):
        k(queue, g, l, buf, buf, 1e39, loc)
    with pytest.raises(sgcc.ArgumentError, match=r"argument 0 \('in'\).*global buffer.*"
                       r"a buffer was expected"):
        k(queue, g, l, np.zeros(4, np.float32), buf, np.float32(1), loc)
    with pytest.raises(sgcc.ArgumentError, match=r"argument 3 \('stage'\).*LocalMemory"):
        k(queue, g, l, buf, buf, np.float32(1), buf)
    import pyopencl.array as cla
    ints = cla.zeros(queue, LOCAL, np.int32)
    with pytest.raises(sgcc.ArgumentError, match="pyopencl.array.Array of int32"):
        k(queue, g, l, ints, buf, np.float32(1), loc)
    floats = cla.zeros(queue, LOCAL, np.float32)
    k(queue, g, l, floats, buf, np.float32(1), loc).wait()   # an Array of the right type


def test_required_work_group_size(intel_env):
    ctx, queue, device = intel_env
    m = sgcc.compile(source="spec_const uint wg = 16;\n"
                            "[[reqd_work_group_size(wg, 1, 1)]]\n"
                            "kernel void k(global uint *o) "
                            "{ o[get_global_id(0)] = get_local_size(0); }\n")
    prog = sgcl.build(ctx, m, spec={"wg": 8})
    k = sgcl.Kernel(prog, "k")
    assert k.reqd_work_group_size == (8, 1, 1)
    assert repr(k) == ("<sgcc.pyopencl.Kernel [[reqd_work_group_size(wg, 1, 1)]] kernel void "
                       "k(global uint *o) of module 'module', work-group size (8, 1, 1)>")
    for bad, why in ((0, "every dimension must be at least 1"),
                     (device.max_work_group_size + 1,
                      re.escape(f"more than device '{device.name}' allows"))):
        with pytest.raises(sgcc.SpecConstantError, match=why):
            sgcl.build(ctx, m, spec={"wg": bad})
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 32)
    k(queue, (32,), None, buf)            # local size taken from the attribute
    out = np.empty(32, np.uint32)
    cl.enqueue_copy(queue, out, buf)
    assert (out == 8).all()
    with pytest.raises(sgcc.ArgumentError, match="differs from its required"):
        k(queue, (32,), (16,), buf)


def test_header_added_earlier_in_the_search_runs(intel_env, tmp_path, monkeypatch):
    """Issue 35.8 as a user sees it: out[5] is 22 with d2/mul.h, and 32 (not
    the cached 22) once d1/mul.h exists, with -Id1 -Id2."""
    ctx, queue, device = intel_env
    monkeypatch.setenv("SGCC_CACHE_DIR", str(tmp_path / "cache"))
    d1, d2 = tmp_path / "d1", tmp_path / "d2"
    d1.mkdir()
    d2.mkdir()
    (d2 / "mul.h").write_text("int mul(int x) { return 4 * x + 2; }\n")
    src = tmp_path / "five.sgc"
    src.write_text('#include "mul.h"\n'
                   "kernel void five(global int *out)\n"
                   "{ int i = (int)get_global_id(0); out[i] = mul(i); }\n")

    def out5():
        m = sgcc.compile(path=src, include_dirs=[d1, d2])
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 8)
        sgcl.Kernel(sgcl.build(ctx, m), "five")(queue, (8,), (8,), buf)
        out = np.empty(8, np.int32)
        cl.enqueue_copy(queue, out, buf)
        return int(out[5])
    assert out5() == 4 * 5 + 2
    assert out5() == 4 * 5 + 2
    (d1 / "mul.h").write_text("int mul(int x) { return 6 * x + 2; }\n")
    assert out5() == 6 * 5 + 2


def test_build_options_passthrough(intel_env):
    ctx, queue, device = intel_env
    # A user option comes last: here it binds the constant by hand.
    m = sgcc.compile(source="spec_const int v = 1;\n"
                            "kernel void k(global int *o) { o[0] = v; }")
    prog = sgcl.build(ctx, m, options=["-DSGC_SPEC_0=41"])
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4)
    sgcl.Kernel(prog, "k")(queue, (1,), (1,), buf)
    out = np.empty(1, np.int32)
    cl.enqueue_copy(queue, out, buf)
    assert out[0] == 41


def test_default_device(ballot):
    """A GPU, else a CPU, that can run the module; never the simulator
    (Oclgrind, which claims every device type) while a real device can."""
    try:
        device = sgcl.default_device(ballot)
    except sgcc.UnsupportedError as e:
        assert "no OpenCL device can run the module" in str(e)
        pytest.skip("no device with non-uniform groups here")
    caps = sgcl.device_caps(device)
    assert caps.non_uniform_groups
    assert not (device.type & cl.device_type.GPU and device.type & cl.device_type.CPU)


def test_sub_groups_wider_than_64_refused(intel_env, ballot):
    """sgrt's launch check, with the device's answer replaced by 128 (PoCL 5
    gives that for a work-group of 128: one sub-group per work-group)."""
    ctx, queue, device = intel_env
    k = sgcl.Kernel(sgcl.build(ctx, ballot), "ballot_sums")
    assert k._needs_fit_check

    class WideSubGroups:
        def get_sub_group_info(self, *args):
            return 128

        def __call__(self, *args, **kw):
            raise AssertionError("launched")
    k.cl_kernel = WideSubGroups()
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 128)
    with pytest.raises(sgcc.UnsupportedError, match=r"launch of 'ballot_sums': device '.*' "
                       r"makes sub-groups of 128 work-items for this work-group size; sgcc's "
                       r"group library holds at most 64"):
        k(queue, (128,), (128,), buf, buf, buf, np.int32(0))


SCALARS = """
kernel void scalars(global long *out, char c, uchar uc, short s, ushort us, int i, uint u,
                    long l, ulong ul, float f, double d)
{
    out[0] = c; out[1] = uc; out[2] = s; out[3] = us; out[4] = i; out[5] = u;
    out[6] = l; out[7] = (long)(ul >> 1); out[8] = (long)(f * 4.0f); out[9] = (long)(d * 8.0);
}
"""


def test_python_scalar_arguments(intel_env):
    """Python ints and floats for every by-value type a kernel parameter
    may have (bool and size_t may not: sgcc refuses them) reach the kernel
    with their values, the limits included; a value the type cannot hold
    is refused before launch."""
    ctx, queue, device = intel_env
    k = sgcl.Kernel(sgcl.build(ctx, sgcc.compile(source=SCALARS)), "scalars")
    out_buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 8 * 10)
    args = [-128, 255, -32768, 65535, -2**31, 2**32 - 1, -2**63, 2**64 - 1, 2.75, -3]
    k(queue, (1,), (1,), out_buf, *args)
    out = np.empty(10, np.int64)
    cl.enqueue_copy(queue, out, out_buf)
    assert [int(v) for v in out] == [-128, 255, -32768, 65535, -2**31, 2**32 - 1, -2**63,
                                     (2**64 - 1) >> 1, 11, -24]
    for index, bad in ((1, -129), (2, 256), (5, 2**31), (6, -1), (8, 2**64), (9, 1e39),
                       (10, 10**400)):
        wrong = list(args)
        wrong[index - 1] = bad
        with pytest.raises(sgcc.ArgumentError, match=rf"argument {index} .*out of range"):
            k(queue, (1,), (1,), out_buf, *wrong)


def test_kernel_and_caps_reprs(intel_env, groups):
    ctx, queue, device = intel_env
    k = sgcl.Kernel(sgcl.build(ctx, groups), "scaled_copy")
    assert repr(k) == ("<sgcc.pyopencl.Kernel kernel void scaled_copy(global const float *in, "
                       "global float *out, float factor, local float *stage) of module "
                       "'workgroup'>")
    caps = sgcl.device_caps(device)
    text = repr(caps)
    assert text.startswith(f"<sgcc DeviceCaps '{device.name}': opencl cpu, tier khr; "
                           f"OpenCL C {caps.opencl_c[0]}.{caps.opencl_c[1]}, sub-groups (")
    assert f"work-groups up to {device.max_work_group_size}" in text


LARGE_WORK_GROUP = """
import numpy as np, sgcc
sgcc.use_opencl_env()
import pyopencl as cl
device = [d for p in cl.get_platforms() if "Intel" in p.name for d in p.get_devices()][0]
n = device.max_work_group_size
if n != 16384:
    print("SKIP: the Intel runtime ignored CL_CONFIG_CPU_FORCE_MAX_WORK_GROUP_SIZE", n)
    raise SystemExit(0)
module = sgcc.compile(source='''
kernel void sums(global const int *in, global int *scan, global int *total)
{
    int x = in[get_global_id(0)];
    scan[get_global_id(0)] = exclusive_scan_over_group(get_work_group(), x, plus);
    int sum = reduce_over_group(get_work_group(), x, plus);
    if (get_local_id(0) == 0)
        total[get_group_id(0)] = sum;
}''')
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
# tree: the strategy whose collectives go through the per-work-item scratch
prog = sgcc.pyopencl.build(ctx, module, wg_strategy="tree")
print(" ".join(prog.sgcc_options))
x = (np.arange(2 * n) % 7 + 1).astype(np.int32)
mf = cl.mem_flags
d_in = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
d_scan = cl.Buffer(ctx, mf.WRITE_ONLY, x.nbytes)
d_total = cl.Buffer(ctx, mf.WRITE_ONLY, 8)
sgcc.pyopencl.Kernel(prog, "sums")(queue, (2 * n,), (n,), d_in, d_scan, d_total)
scan, total = np.empty_like(x), np.empty(2, np.int32)
cl.enqueue_copy(queue, scan, d_scan)
cl.enqueue_copy(queue, total, d_total)
groups = x.reshape(2, n)
assert (total == groups.sum(axis=1)).all(), (total, groups.sum(axis=1))
assert (scan == np.concatenate([np.cumsum(g) - g for g in groups])).all()
print("ok")
"""


def test_large_work_group_gets_wg_max_items(intel_env, tmp_path):
    """docs/GROUPS.md: the work-group collectives' scratch holds
    SGC_WG_MAX_ITEMS work-items (8192 on a CPU by default); on a device with
    larger work-groups the host must define it, as sgrt does.  The Intel
    runtime made to allow 16384 (in a process of its own: it reads the
    setting once) runs a scan and a reduction over 16384-item work-groups;
    without the option the upper half of each work-group is left out."""
    env = dict(os.environ, CL_CONFIG_CPU_FORCE_MAX_WORK_GROUP_SIZE="16384",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, "-c", LARGE_WORK_GROUP], capture_output=True,
                         text=True, env=env, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    if out.stdout.startswith("SKIP"):
        pytest.skip(out.stdout.strip())
    options, verdict = out.stdout.splitlines()[-2:]
    assert "-DSGC_WG_MAX_ITEMS=16384" in options.split() and verdict == "ok"


def test_import_sgcc_then_attribute(intel_env, tmp_path):
    """After a plain `import sgcc`, sgcc.pyopencl is there, and PyOpenCL is
    imported only then."""
    code = ("import sys, numpy as np, sgcc\n"
            "assert 'pyopencl' not in sys.modules and 'sgcc.pyopencl' not in sys.modules\n"
            "sgcc.use_opencl_env()\n"
            "m = sgcc.compile(source='kernel void k(global int *o) { o[0] = 42; }')\n"
            "assert 'pyopencl' not in sys.modules\n"
            "build = sgcc.pyopencl.build\n"
            "assert 'pyopencl' in sys.modules\n"
            "cl = sys.modules['pyopencl']\n"
            "dev = [d for p in cl.get_platforms() if 'Intel' in p.name "
            "for d in p.get_devices()][0]\n"
            "ctx = cl.Context([dev]); q = cl.CommandQueue(ctx)\n"
            "buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4)\n"
            "sgcc.pyopencl.Kernel(build(ctx, m), 'k')(q, (1,), (1,), buf)\n"
            "out = np.zeros(1, np.int32); cl.enqueue_copy(q, out, buf); print(out[0])\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["42"]
