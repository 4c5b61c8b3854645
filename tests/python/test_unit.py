"""Unit tests of the package's pure parts, on a hand-written module
description (fixture_module.json, the agreed shape of --emit-json): the
Module objects, spec-constant binding and spelling, device capability
decisions.  No sgcc run, no device."""
import json
import math
import struct

import pytest

import sgcc
from sgcc import _caps, _spec
from conftest import HERE


@pytest.fixture
def module():
    desc = json.loads((HERE / "fixture_module.json").read_text())
    return sgcc.Module(desc, "/* cl */", "/* cu */")


def test_module_sources_by_target(module):
    """Module(description, *sources): one per row of the target table, in
    its order; `sources`, `source()` and `<target>_source` agree."""
    from sgcc._targets import NAMES
    assert list(module.sources) == list(NAMES)
    assert (module.sources["opencl"], module.sources["cuda"]) == ("/* cl */", "/* cu */")
    assert module.source("cuda") == module.cuda_source == "/* cu */"
    assert module.opencl_source == "/* cl */"
    short = sgcc.Module(module.description, "/* cl */")
    assert short.cuda_source is None and short.opencl_source == "/* cl */"
    assert [n for n, text in short.sources.items() if text is not None] == ["opencl"]
    too_many = ("x",) * (len(NAMES) + 1)
    with pytest.raises(TypeError, match=f"{len(too_many)} sources for {len(NAMES)} targets"):
        sgcc.Module(module.description, *too_many)
    with pytest.raises(KeyError, match="no target 'hip'"):
        module.source("hip")
    with pytest.raises(AttributeError):
        module.hip_source


def test_module_objects(module):
    assert module.name == "fixture"
    k = module.kernel("partial_sums")
    assert [p.name for p in k.params] == ["in", "out", "tmp", "n"]
    assert [p.kind for p in k.params] == ["global", "global", "local", "scalar"]
    assert k.params[0].const and not k.params[1].const
    assert k.reqd_work_group_size[0] == {"spec_constant": "block", "id": 0}
    assert k.requires.non_uniform_groups and not k.requires.fp64
    assert k.supported("opencl") and not k.supported("cuda")
    assert "32 threads" in k.unsupported_reason("cuda")
    assert module.spec_constant("alpha").id == 42
    assert module.spec_constant(0).name == "block"
    with pytest.raises(KeyError, match="no kernel 'nope'"):
        module.kernel("nope")


def test_spec_by_name_and_id(module):
    by_name = _spec.define_options(module, _spec.resolve(module, {"block": 32, "alpha": 2.5}))
    by_id = _spec.define_options(module, _spec.resolve(module, {0: 32, 42: 2.5}))
    assert by_name == by_id == ["-DSGC_SPEC_0=32", "-DSGC_SPEC_42=0x1.4p+1f"]


def test_spec_errors(module):
    with pytest.raises(sgcc.SpecConstantError, match="required and has no value"):
        _spec.resolve(module, {"block": 1})
    with pytest.raises(sgcc.SpecConstantError, match="no specialization constant named 'blok'"):
        _spec.resolve(module, {"blok": 1, "alpha": 1.0})
    with pytest.raises(sgcc.SpecConstantError, match="with ID 7"):
        _spec.resolve(module, {7: 1, "alpha": 1.0})
    with pytest.raises(sgcc.SpecConstantError, match="given twice"):
        _spec.resolve(module, {"block": 1, 0: 2, "alpha": 1.0})
    with pytest.raises(sgcc.SpecConstantError, match="expected an integer"):
        _spec.resolve(module, {"block": 1.5, "alpha": 1.0})
    with pytest.raises(sgcc.SpecConstantError, match="out of range"):
        _spec.resolve(module, {"block": 2**31, "alpha": 1.0})
    with pytest.raises(sgcc.SpecConstantError, match="out of range"):
        _spec.resolve(module, {"alpha": 1e39})
    with pytest.raises(sgcc.SpecConstantError, match="expected a number"):
        _spec.resolve(module, {"alpha": "1.0"})


def spec(type_):
    return sgcc.SpecConstant("c", 3, type_, False, 0, "0", "SGC_SPEC_3")


INT_CASES = [
    ("char", -128, "-128"), ("char", 127, "127"), ("uchar", 255, "255"),
    ("short", -32768, "-32768"), ("ushort", 65535, "65535"),
    ("int", -2**31, "(-2147483647-1)"), ("int", 2**31 - 1, "2147483647"),
    ("uint", 2**32 - 1, "4294967295u"), ("long", -2**63, "(-9223372036854775807L-1)"),
    ("ulong", 2**64 - 1, "18446744073709551615UL"), ("bool", True, "1"), ("bool", 0, "0"),
]


@pytest.mark.parametrize("type_,value,text", INT_CASES)
def test_integer_spelling(module, type_, value, text):
    assert _spec.format_value(spec(type_), module, value) == text


@pytest.mark.parametrize("type_,value", [("char", 128), ("uchar", -1), ("ushort", 65536),
                                         ("uint", -1), ("ulong", 2**64), ("long", 2**63),
                                         ("bool", 2)])
def test_integer_range(module, type_, value):
    with pytest.raises(sgcc.SpecConstantError):
        _spec.format_value(spec(type_), module, value)


FLOAT_EDGES = [0.1, -0.0, 0.0, 1.0, -2.5, 1e-45, 1.4e-45, 1.17549435e-38, 5e-40,
               3.4028234663852886e+38, -3.4028234663852886e+38]
DOUBLE_EDGES = [0.1, -0.0, 5e-324, 2.2250738585072014e-308, 1e-310,
                1.7976931348623157e+308, -1.7976931348623157e+308, 1 / 3]


def float32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


@pytest.mark.parametrize("value", FLOAT_EDGES)
def test_float_spelling_round_trips(module, value):
    text = _spec.format_value(spec("float"), module, value)
    assert text.endswith("f")
    # The spelling parses back to the float32 nearest to the value, bit for bit.
    assert float32_bits(float.fromhex(text[:-1])) == float32_bits(value)


@pytest.mark.parametrize("value", DOUBLE_EDGES)
def test_double_spelling_round_trips(module, value):
    text = _spec.format_value(spec("double"), module, value)
    back = float.fromhex(text)
    assert struct.pack("<d", back) == struct.pack("<d", value)


def test_c_hex_is_glibc_spelling():
    # glibc printf("%a") for these (checked against C: 0x1p+0, 0x0p+0, ...).
    assert _spec.c_hex(1.0) == "0x1p+0"
    assert _spec.c_hex(0.0) == "0x0p+0"
    assert _spec.c_hex(-0.0) == "-0x0p+0"
    assert _spec.c_hex(0.1) == "0x1.999999999999ap-4"
    assert _spec.c_hex(5e-324) == "0x0.0000000000001p-1022"


def test_nonfinite_spelling(module):
    assert _spec.format_value(spec("float"), module, math.inf) == "(1.0f/0.0f)"
    assert _spec.format_value(spec("double"), module, -math.inf) == "(-1.0/0.0)"
    assert _spec.format_value(spec("double"), module, math.nan) == "(0.0/0.0)"


def caps(**kw):
    base = dict(platform_name="P", vendor="V", device_name="dev", kind="cpu",
                opencl_c=(1, 2), extensions="")
    base.update(kw)
    return _caps.opencl_caps(**base)


def test_tiers_and_options():
    nv = caps(platform_name="NVIDIA CUDA", kind="gpu", opencl_c=(3, 0), nv_sm=90)
    assert nv.tier == "nvptx" and nv.non_uniform_groups
    assert _caps.opencl_device_options(nv) == ["-cl-std=CL3.0", "-DSGC_NV_PTX=1",
                                               "-DSGC_NV_SM=90",
                                               "-DSGC_SKIP_UNSUPPORTED_KERNELS"]
    wg = caps()
    assert wg.tier == "wg" and not wg.sub_groups
    assert _caps.opencl_device_options(wg) == ["-DSGC_SKIP_UNSUPPORTED_KERNELS",
                                               "-DSGC_DEVICE_CPU=1"]
    assert _caps.wg_strategy_option(wg) == "-DSGC_WG_STRATEGY=1"
    khr = caps(extensions="cl_khr_subgroups cl_khr_subgroup_ballot cl_khr_subgroup_shuffle")
    assert khr.tier == "khr" and not khr.non_uniform_groups   # no non-uniform extension
    ok = caps(extensions="cl_intel_subgroups cl_khr_subgroup_ballot "
                         "cl_khr_subgroup_non_uniform_vote")
    assert ok.non_uniform_groups


def test_refusals_match_sgrt(module):
    with pytest.raises(sgcc.UnsupportedError, match=r"^kernel 'partial_sums' needs sub-groups "
                       r"\(cl_khr_subgroups or cl_intel_subgroups\), not supported on "
                       r"device 'dev'$"):
        _caps.check_buildable(module, caps())
    khr = caps(extensions="cl_khr_subgroups cl_khr_subgroup_ballot cl_khr_subgroup_shuffle")
    with pytest.raises(sgcc.UnsupportedError, match="uses non-uniform groups"):
        _caps.check_buildable(module, khr)
    with pytest.raises(sgcc.UnsupportedError, match="work-group strategy 'builtin' needs"):
        _caps.wg_strategy_option(caps(), "builtin")
    # A kernel sgcc left out of the CUDA source does not stop the build of
    # the others; asking for it is refused as sgrt_kernel_get does.
    _caps.check_buildable(module, _caps.cuda_caps("H100", 9, 0))
    err = _caps.kernel_refusal(module, module.kernel("partial_sums"), "cuda")
    assert str(err) == ("kernel 'partial_sums' of module 'fixture' cannot run on cuda: "
                        "requires sub-group size 16, but CUDA warps have 32 threads (sgcc "
                        "left it out of the cuda source)")
    assert _caps.kernel_refusal(module, module.kernel("partial_sums"), "opencl") is None


def variant(module, **kernel_changes):
    """The fixture module with its kernel (and the union) changed."""
    desc = json.loads(json.dumps(module.description))
    k = desc["kernels"][0]
    for key, value in kernel_changes.items():
        if key in k["requires"]:
            k["requires"][key] = value
            desc["requires"][key] = value
        else:
            k[key] = value
    return sgcc.Module(desc, "/* cl */", "/* cu */")


def test_every_refusal_message(module):
    full = caps(extensions="cl_intel_subgroups cl_khr_subgroup_ballot "
                           "cl_khr_subgroup_non_uniform_vote cl_intel_required_subgroup_size",
                sub_group_sizes=(8, 16), fp64_config=0)
    _caps.check_buildable(module, full)   # the fixture itself is fine here
    with pytest.raises(sgcc.UnsupportedError, match=r"^module 'fixture' uses double, but "
                       r"device 'dev' has no fp64 \(cl_khr_fp64\)$"):
        _caps.check_buildable(variant(module, fp64=True), full)
    with pytest.raises(sgcc.UnsupportedError, match=r"^kernel 'partial_sums' requires "
                       r"sub-group size 32, not supported on device 'dev'$"):
        _caps.check_buildable(variant(module, reqd_sub_group_size=32), full)
    _caps.check_buildable(variant(module, reqd_sub_group_size=16), full)
    with pytest.raises(sgcc.UnsupportedError, match=r"needs split barriers \(mbarrier, sm_80"):
        _caps.check_buildable(variant(module, split_barriers=True, sub_groups=False,
                                      non_uniform_groups=False,
                                      backends={"cuda": {"supported": True}}),
                              _caps.cuda_caps("T4", 7, 5))
    no_cuda = sgcc.Module(module.description, "/* cl */", None)
    with pytest.raises(sgcc.UnsupportedError, match="has no cuda source"):
        _caps.check_buildable(no_cuda, _caps.cuda_caps("H100", 9, 0))


def test_default_wg_strategies():
    gpu_khr = caps(kind="gpu", extensions="cl_khr_subgroups")
    assert gpu_khr.default_wg_strategy() == "subgroup"
    cpu_khr = caps(extensions="cl_khr_subgroups")
    assert cpu_khr.default_wg_strategy() == "tree"          # never subgroup on a CPU
    cl2 = caps(opencl_c=(2, 0))
    assert cl2.default_wg_strategy() == "builtin" and cl2.wg_collectives
    cl3 = caps(opencl_c=(3, 0), features=("__opencl_c_work_group_collective_functions",))
    assert cl3.default_wg_strategy() == "builtin"
    assert caps(opencl_c=(3, 0)).default_wg_strategy() == "tree"
    assert _caps.cuda_caps("H100", 9, 0).default_wg_strategy() == "subgroup"
    assert _caps.wg_strategy_option(cpu_khr, "subgroup") == "-DSGC_WG_STRATEGY=3"


def test_spec_defines_in_declaration_order(module):
    """As sgrt's compose_options: the module's table order, not the IDs'."""
    desc = json.loads(json.dumps(module.description))
    desc["spec_constants"].reverse()   # alpha (ID 42) declared before block (ID 0)
    m = sgcc.Module(desc, "", "")
    assert _spec.define_options(m, _spec.resolve(m, {0: 1, 42: 1.0})) == [
        "-DSGC_SPEC_42=0x1p+0f", "-DSGC_SPEC_0=1"]


def test_left_out_kernel_refused_by_name(module):
    """As sgrt: a kernel the device cannot run that the OpenCL source leaves
    out (-DSGC_SKIP_UNSUPPORTED_KERNELS) does not stop the build of the
    others and is refused by name; a module none of whose kernels can run
    is refused whole (test_refusals_match_sgrt)."""
    desc = json.loads(json.dumps(module.description))
    plain = json.loads(json.dumps(desc["kernels"][0]))
    plain["name"] = "plain"
    plain["requires"] = {key: False for key in plain["requires"]}
    plain["backends"]["cuda"] = {"supported": True}
    desc["kernels"].append(plain)
    mixed = sgcc.Module(desc, "/* cl */", "/* cu */")
    refused = _caps.check_buildable(mixed, caps())   # the wg tier
    assert list(refused) == ["partial_sums"]
    err = _caps.left_out_refusal(mixed, "partial_sums", refused)
    assert str(err) == ("kernel 'partial_sums' needs sub-groups (cl_khr_subgroups or "
                        "cl_intel_subgroups), not supported on device 'dev' (module 'fixture' "
                        "was built without it: -DSGC_SKIP_UNSUPPORTED_KERNELS)")
    assert _caps.left_out_refusal(mixed, "plain", refused) is None
    nv = caps(platform_name="NVIDIA CUDA", kind="gpu", opencl_c=(3, 0), nv_sm=90)
    sixteen = json.loads(json.dumps(desc))
    sixteen["kernels"][0]["reqd_sub_group_size"] = 16
    refused = _caps.check_buildable(sgcc.Module(sixteen, "/* cl */", "/* cu */"), nv)
    assert refused == {"partial_sums": "kernel 'partial_sums' requires sub-group size 16, "
                                       "not supported on device 'dev'"}
    # What the source cannot leave out still refuses the whole build.
    split = json.loads(json.dumps(desc))
    split["kernels"][0]["requires"]["split_barriers"] = True
    split["kernels"][0]["backends"]["cuda"] = {"supported": True}
    with pytest.raises(sgcc.UnsupportedError, match="needs split barriers"):
        _caps.check_buildable(sgcc.Module(split, "/* cl */", "/* cu */"),
                              _caps.cuda_caps("V100", 7, 0))


def test_work_group_max_items_option():
    """As sgrt's cl_device_options: the device's largest work-group, right
    after the CPU define, so the work-group collectives' scratch has a slot
    for every work-item (docs/GROUPS.md "Work-group scratch")."""
    cpu = caps(max_work_group_size=16384)
    assert _caps.opencl_device_options(cpu) == ["-DSGC_SKIP_UNSUPPORTED_KERNELS",
                                                "-DSGC_DEVICE_CPU=1",
                                                "-DSGC_WG_MAX_ITEMS=16384"]
    gpu = caps(kind="gpu", opencl_c=(3, 0), max_work_group_size=1024)
    assert _caps.opencl_device_options(gpu) == ["-cl-std=CL3.0",
                                                "-DSGC_SKIP_UNSUPPORTED_KERNELS",
                                                "-DSGC_WG_MAX_ITEMS=1024"]
    # CUDA: sgrt passes no such option (a fixed shared block, in chunks).
    import sgcc.cupy as sgcu
    m = sgcc.Module({"module": "m", "kernels": []}, None, "/* cu */")
    options = sgcu.build_options(m, caps=_caps.cuda_caps("H100", 9, 0,
                                                         max_threads_per_block=1024))
    assert options == ["-DSGC_WG_STRATEGY=3"]


def test_numpy_bool_spec_constant(module):
    np = pytest.importorskip("numpy")
    assert _spec.format_value(spec("bool"), module, np.True_) == "1"
    assert _spec.format_value(spec("bool"), module, np.bool_(False)) == "0"
    assert _spec.format_value(spec("bool"), module, np.array(True)) == "1"   # 0-d
    for wrong in ("true", np.array([True]), 1.0):
        with pytest.raises(sgcc.SpecConstantError, match="is bool: expected True/False"):
            _spec.format_value(spec("bool"), module, wrong)
    # NumPy integers and floats were accepted before; still are.
    assert _spec.format_value(spec("uchar"), module, np.uint8(255)) == "255"
    assert _spec.format_value(spec("float"), module, np.float32(0.5)) == "0x1p-1f"


def test_spec_set_work_group_sizes(module):
    """A required work-group size set by a spec constant is checked when
    the values are bound: a dimension below 1, or more work-items than the
    device allows, fails there and not in the device compiler."""
    base = {"alpha": 1.0}
    for block in (0, -3):
        bound = _spec.resolve(module, {**base, "block": block})
        with pytest.raises(sgcc.SpecConstantError, match=rf"kernel 'partial_sums' of module "
                           rf"'fixture' requires work-group size \({block}, 1, 1\) "
                           rf"\(reqd_work_group_size set by specialization constant 'block'\): "
                           rf"every dimension must be at least 1"):
            _spec.check_work_group_sizes(module, bound, "opencl")
    bound = _spec.resolve(module, {**base, "block": 2048})
    _spec.check_work_group_sizes(module, bound, "opencl")            # no device limit known
    _spec.check_work_group_sizes(module, bound, "opencl", 2048, "dev")
    with pytest.raises(sgcc.SpecConstantError, match=r"2048 work-items, more than device "
                       r"'dev' allows \(1024\)"):
        _spec.check_work_group_sizes(module, bound, "opencl", 1024, "dev")
    # Not in the CUDA source: not checked for CUDA.
    _spec.check_work_group_sizes(module, bound, "cuda", 1024, "dev")
    assert _spec.reqd_work_group_size(module, bound, module.kernel("partial_sums")) == \
        (2048, 1, 1)
    # The default (16) applies when the constant is not bound.
    assert _spec.reqd_work_group_size(module, _spec.resolve(module, base),
                                      module.kernel("partial_sums")) == (16, 1, 1)


def test_reprs(module):
    k = module.kernel("partial_sums")
    assert k.signature() == ("[[reqd_work_group_size(block, 1, 1)]] kernel void "
                             "partial_sums(global const int *in, global int *out, "
                             "local float *tmp, uint n)")
    assert repr(k) == f"<sgcc.Kernel {k.signature()}>"
    struct = sgcc.Param("s", "scalar", None, 16)
    assert struct.declaration() == "struct (16 bytes) s"
    full = caps(kind="gpu", opencl_c=(3, 0), device_name="Arc",
                extensions="cl_intel_subgroups cl_khr_subgroup_ballot "
                           "cl_khr_subgroup_non_uniform_vote cl_intel_required_subgroup_size",
                sub_group_sizes=(8, 16, 32), max_work_group_size=1024)
    assert repr(full) == ("<sgcc DeviceCaps 'Arc': opencl gpu, tier khr; OpenCL C 3.0, "
                          "sub-groups (8, 16, 32), non-uniform groups, split barriers, "
                          "work-groups up to 1024; no fp64>")
    assert repr(caps()) == ("<sgcc DeviceCaps 'dev': opencl cpu, tier wg; OpenCL C 1.2, "
                            "split barriers; no sub-groups, no non-uniform groups, no fp64>")
    assert repr(_caps.cuda_caps("H100", 9, 0, max_threads_per_block=1024)) == (
        "<sgcc DeviceCaps 'H100': cuda gpu, tier cuda; sm_90, sub-groups (32), non-uniform "
        "groups, split barriers, fp64, work-groups up to 1024>")


def param(type_):
    return sgcc.Param("v", "scalar", type_, 0)


def convert(type_, value):
    from sgcc import _args
    kernel = sgcc.Kernel("k", (param(type_),), None, None, sgcc.Requires(), {})
    return _args.scalar_converter(kernel, 0, kernel.params[0])(value)


@pytest.mark.parametrize("type_,value,dtype", [
    ("char", -128, "int8"), ("uchar", 255, "uint8"), ("short", -32768, "int16"),
    ("ushort", 65535, "uint16"), ("int", -2**31, "int32"), ("uint", 2**32 - 1, "uint32"),
    ("long", -2**63, "int64"), ("ulong", 2**64 - 1, "uint64"), ("size_t", 2**64 - 1, "uint64"),
    ("bool", True, "bool"), ("bool", 0, "bool"), ("float", 0.1, "float32"),
    ("float", 3, "float32"), ("float", float("inf"), "float32"), ("double", 0.1, "float64"),
    ("double", -7, "float64"), ("float", 3.40282350e+38, "float32")])
def test_python_scalars_converted(type_, value, dtype):
    """As PyOpenCL's set_scalar_arg_dtypes: a Python bool/int/float becomes
    the NumPy scalar of the parameter's type, with its exact value."""
    np = pytest.importorskip("numpy")
    got = convert(type_, value)
    assert type(got) is np.dtype(dtype).type
    if type_ == "float":   # rounded to nearest float32 (above FLT_MAX: down to it)
        assert float32_bits(float(got)) == float32_bits(value)
    else:
        assert got == value


@pytest.mark.parametrize("type_,value,message", [
    ("char", 128, r"128 is out of range \(-128 \.\. 127\)"),
    ("uchar", -1, r"-1 is out of range \(0 \.\. 255\)"),
    ("int", 2**31, r"2147483648 is out of range \(-2147483648 \.\. 2147483647\)"),
    ("uint", -1, r"-1 is out of range \(0 \.\. 4294967295\)"),
    ("ulong", 2**64, r"is out of range \(0 \.\. 18446744073709551615\)"),
    ("long", -2**63 - 1, "is out of range"),
    ("int", 1.0, r"a numpy.int32 or a Python int was expected, but a builtins.float"),
    ("int", True, "but a builtins.bool was passed"),
    ("bool", 2, r"2 is not a truth value \(True/False or 0/1\)"),
    ("bool", "yes", "a numpy.bool or a Python bool was expected, but a builtins.str"),
    ("float", 1e39, r"1e\+39 is out of range \(magnitude above FLT_MAX\)"),
    ("float", -3.5e38, "magnitude above FLT_MAX"),
    ("double", 10**400, r"is out of range \(too large for a double\)"),
    ("float", "1.0", "a numpy.float32 or a Python float or int was expected, but a "
                     "builtins.str"),
    ("float", None, "builtins.NoneType was passed")])
def test_python_scalars_range_checked(type_, value, message):
    pytest.importorskip("numpy")
    with pytest.raises(sgcc.ArgumentError, match=r"argument 0 \('v'\) of kernel 'k' is a "
                       r"by-value parameter of type " + type_ + ".*" + message):
        convert(type_, value)


def test_numpy_scalars_still_exact():
    np = pytest.importorskip("numpy")
    x = np.float32(2.5)
    assert convert("float", x) is x
    with pytest.raises(sgcc.ArgumentError, match=r"a numpy.float64 was passed \(use "
                       r"numpy.float32\(...\)\)"):
        convert("float", np.float64(2.5))
    with pytest.raises(sgcc.ArgumentError, match=r"a numpy.int64 was passed"):
        convert("int", np.int64(1))


def test_every_module_is_installed():
    """python/meson.build lists the files a wheel installs: a module of the
    package missing there is missing from every installed copy (sgcc/_args.py
    was, and `import sgcc.pyopencl` failed there while it worked here)."""
    root = HERE.parent.parent
    listed = (root / "python" / "meson.build").read_text()
    modules = sorted(p.name for p in (root / "python" / "sgcc").glob("*.py"))
    missing = [m for m in modules if f"'sgcc/{m}'" not in listed]
    assert not missing, f"python/meson.build does not install {missing}"
