"""sgcc.compile(): sources, metadata, errors and the translation cache,
against the real sgcc executable."""
import errno
import os
import shutil
import stat
import subprocess
import sys
import threading
import time
import warnings

import pytest

import sgcc
from conftest import KERNELS

GOOD = """spec_const int block = 16;
spec_const(42) float alpha;
kernel void partial_sums(global const int *in, global int *out, local float *tmp, uint n)
{
    sub_group sg = get_sub_group();
    int sum = reduce_over_group(sg, in[get_global_id(0)], plus);
    if (sg.leader())
        atomic_fetch_add(&out[get_group_id(0)], sum);
}
"""

BAD = """kernel void k(global int *o)
{
    o[0] = x;
    o[1] = y;
}
"""


def test_source_and_metadata():
    m = sgcc.compile(source=GOOD, name="reduce")
    assert m.name == "reduce"
    assert "__kernel void partial_sums" in m.opencl_source
    assert "partial_sums" in m.cuda_source and "__global__" in m.cuda_source
    (k,) = m.kernels
    assert k.name == "partial_sums"
    assert [(p.name, p.kind, p.type, p.size, p.const) for p in k.params] == [
        ("in", "global", "int", 4, True), ("out", "global", "int", 4, False),
        ("tmp", "local", "float", 4, False), ("n", "scalar", "uint", 4, False)]
    assert k.requires.sub_groups and not k.requires.non_uniform_groups
    assert k.reqd_work_group_size is None and k.reqd_sub_group_size is None
    specs = {s.name: s for s in m.spec_constants}
    assert (specs["block"].id, specs["block"].type, specs["block"].required,
            specs["block"].default) == (0, "int", False, 16)
    assert (specs["alpha"].id, specs["alpha"].type, specs["alpha"].required,
            specs["alpha"].default) == (42, "float", True, None)
    assert m.requires.sub_groups and not m.requires.fp64


def test_path_and_targets(tmp_path):
    f = tmp_path / "vec.sgc"
    f.write_text("kernel void add(global const float *a, global float *b) "
                 "{ b[get_global_id(0)] += a[get_global_id(0)]; }\n")
    m = sgcc.compile(path=f, target="opencl")
    assert m.name == "vec" and m.cuda_source is None and "__kernel void add" in m.opencl_source
    m = sgcc.compile(path=str(f), target="cuda")
    assert m.opencl_source is None and "add" in m.cuda_source


def test_target_table_is_sgccs(tmp_path):
    """The package's target table (sgcc/_targets.py) names sgcc's targets:
    the module description's "backends" has one key per row, each row's
    name is accepted by -t and its extension is the file sgcc writes."""
    from sgcc import _targets
    src = "kernel void k(global int *o) { o[0] = 1; }\n"
    m = sgcc.compile(source=src, target="all", cache=False)
    assert sorted(m.description["backends"]) == sorted(_targets.NAMES)
    assert set(m.sources) == set(_targets.NAMES)
    assert all(m.sources[n] for n in _targets.NAMES)
    for row in _targets.TARGETS:
        one = sgcc.compile(source=src, target=row.name, cache=False)
        assert one.source(row.name) == m.source(row.name)
        assert [n for n in _targets.NAMES if one.source(n) is not None] == [row.name]
    with pytest.raises(ValueError, match="target must be one of all, " + ", ".join(_targets.NAMES)):
        sgcc.compile(source=src, target="no-such-target")


def test_defines_and_include_dirs(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "width.h").write_text("#define WIDTH 8\n")
    src = ('#include "width.h"\n'
           "kernel void k(global int *o) { o[0] = WIDTH + EXTRA; }\n")
    m = sgcc.compile(source=src, include_dirs=[inc], defines={"EXTRA": 3})
    assert "8 + 3" in m.opencl_source
    m = sgcc.compile(source=src, include_dirs=str(inc), defines=["EXTRA=4"])
    assert "8 + 4" in m.opencl_source


def test_exactly_one_input():
    with pytest.raises(TypeError):
        sgcc.compile()
    with pytest.raises(TypeError):
        sgcc.compile(source=GOOD, path="x.sgc")
    with pytest.raises(ValueError):
        sgcc.compile(source=GOOD, target="metal")


def test_compile_error_text_and_diagnostics(tmp_path):
    f = tmp_path / "bad.sgc"
    f.write_text(BAD)
    with pytest.raises(sgcc.CompileError) as info:
        sgcc.compile(path=f)
    err = info.value
    # str() is exactly what the sgcc command prints for the same input.
    direct = subprocess.run([sgcc.find_executable(), "--color=never", "-t", "opencl",
                             "-o", str(tmp_path / "out.cl"), str(f)],
                            capture_output=True, text=True)
    assert direct.returncode == 1
    assert str(err) == direct.stderr.rstrip("\n")
    assert "^" in str(err) and "o[0] = x;" in str(err)
    assert [(d["file"], d["line"], d["column"], d["severity"]) for d in err.diagnostics] == [
        (str(f), 3, 12, "error"), (str(f), 4, 12, "error")]
    assert "'x'" in err.diagnostics[0]["message"] and "'y'" in err.diagnostics[1]["message"]
    assert not any(tmp_path.glob("*.cl"))


def test_compile_error_names_source_text():
    with pytest.raises(sgcc.CompileError) as info:
        sgcc.compile(source=BAD, name="mine")
    assert str(info.value).startswith("mine.sgc:3:12: error:")
    assert info.value.diagnostics[0]["file"] == "mine.sgc"


def counting_exe(tmp_path):
    """A wrapper around sgcc that counts its runs (translations only)."""
    log = tmp_path / "runs.log"
    wrapper = tmp_path / "sgcc-counting"
    wrapper.write_text(f"#!/bin/sh\ncase \"$*\" in *--emit-json*) echo run >> '{log}';; esac\n"
                       f"exec '{sgcc.find_executable()}' \"$@\"\n")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return wrapper, log


def runs(log):
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_cache_hits_and_keys(tmp_path, monkeypatch):
    wrapper, log = counting_exe(tmp_path)
    monkeypatch.setenv("SGCC_EXE", str(wrapper))
    monkeypatch.setenv("SGCC_CACHE_DIR", str(tmp_path / "cache"))
    a = sgcc.compile(source=GOOD)
    b = sgcc.compile(source=GOOD)
    assert runs(log) == 1
    assert a.opencl_source == b.opencl_source and a.description == b.description
    sgcc.compile(source=GOOD, defines={"X": 1})          # other options
    sgcc.compile(source=GOOD + "\n")                     # other text
    sgcc.compile(source=GOOD, target="opencl")           # other target
    assert runs(log) == 4
    sgcc.compile(source=GOOD, cache=False)
    assert runs(log) == 5
    # A second process (a second run of a script) hits the same entries.
    code = ("import sgcc, sys; sgcc.compile(source=sys.stdin.read())")
    subprocess.run([sys.executable, "-c", code], input=GOOD, text=True, check=True,
                   env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert runs(log) == 5


def test_cache_sees_include_changes(tmp_path, monkeypatch):
    wrapper, log = counting_exe(tmp_path)
    monkeypatch.setenv("SGCC_EXE", str(wrapper))
    monkeypatch.setenv("SGCC_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "n.h").write_text("#define N 1\n")
    src = tmp_path / "k.sgc"
    src.write_text('#include "n.h"\nkernel void k(global int *o) { o[0] = N; }\n')
    assert "o[0] = 1;" in sgcc.compile(path=src).opencl_source
    assert "o[0] = 1;" in sgcc.compile(path=src).opencl_source
    assert runs(log) == 1
    (tmp_path / "n.h").write_text("#define N 2\n")
    assert "o[0] = 2;" in sgcc.compile(path=src).opencl_source
    assert runs(log) == 2


FIVE = ('#include "mul.h"\n'
        "kernel void five(global int *out)\n"
        "{ int i = (int)get_global_id(0); out[i] = mul(i); }\n")


@pytest.mark.parametrize("how", ["path", "source"])
def test_cache_sees_a_header_appear_earlier_in_the_search(tmp_path, monkeypatch, how):
    """Issue 35.8: -Id1 -Id2 with mul.h only in d2, then a d1/mul.h added:
    the search now finds d1's, so the cached translation (whose only
    dependency, d2/mul.h, is unchanged) must not be used."""
    wrapper, log = counting_exe(tmp_path)
    monkeypatch.setenv("SGCC_EXE", str(wrapper))
    monkeypatch.setenv("SGCC_CACHE_DIR", str(tmp_path / "cache"))
    d1, d2 = tmp_path / "d1", tmp_path / "d2"
    d1.mkdir()
    d2.mkdir()
    (d2 / "mul.h").write_text("int mul(int x) { return 4 * x + 2; }\n")
    src = tmp_path / "five.sgc"
    src.write_text(FIVE)
    if how == "path":
        def compile_():
            return sgcc.compile(path=src, include_dirs=[d1, d2])
    else:
        def compile_():
            return sgcc.compile(source=FIVE, include_dirs=[d1, d2])
    assert "4 * x + 2" in compile_().opencl_source
    m = compile_()
    assert runs(log) == 1
    assert str(d1 / "mul.h") in m.description["absent_includes"]
    (d1 / "mul.h").write_text("int mul(int x) { return 6 * x + 2; }\n")
    m = compile_()
    assert runs(log) == 2
    assert "6 * x + 2" in m.opencl_source and "4 * x + 2" not in m.opencl_source
    assert "6 * x + 2" in compile_().opencl_source   # cached again
    assert runs(log) == 2


def test_cache_sees_has_include_turn_true(tmp_path, monkeypatch):
    wrapper, log = counting_exe(tmp_path)
    monkeypatch.setenv("SGCC_EXE", str(wrapper))
    monkeypatch.setenv("SGCC_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "k.sgc"
    src.write_text('#if __has_include("tuning.h")\n#include "tuning.h"\n#else\n'
                   "#define BIAS 1\n#endif\n"
                   "kernel void k(global int *o) { o[0] = BIAS; }\n")
    assert "o[0] = 1;" in sgcc.compile(path=src).opencl_source
    assert "o[0] = 1;" in sgcc.compile(path=src).opencl_source
    assert runs(log) == 1
    (tmp_path / "tuning.h").write_text("#define BIAS 40\n")
    assert "o[0] = 40;" in sgcc.compile(path=src).opencl_source
    assert runs(log) == 2


def test_stale_temporaries_are_swept(tmp_path, monkeypatch):
    """A writer killed between its write and its rename leaves a
    .tmp-*.json; a later process removes it once it is an hour old."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("SGCC_CACHE_DIR", str(cache))
    (cache / "ab").mkdir(parents=True)
    old, fresh = cache / "ab" / ".tmp-old.json", cache / "ab" / ".tmp-fresh.json"
    old.write_text("{")
    fresh.write_text("{")
    two_hours_ago = old.stat().st_mtime - 7200
    os.utime(old, (two_hours_ago, two_hours_ago))
    code = "import sgcc, sys; sgcc.compile(source=sys.stdin.read())"
    subprocess.run([sys.executable, "-c", code], input=GOOD, text=True, check=True,
                   env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert not old.exists()
    assert fresh.exists()      # perhaps a writer at work: kept
    assert len(list(cache.rglob("*.json"))) == 2   # the new entry and the fresh one


def test_cache_concurrent_writers(tmp_path, monkeypatch):
    monkeypatch.setenv("SGCC_CACHE_DIR", str(tmp_path / "cache"))
    results, errors = [], []

    def work():
        try:
            results.append(sgcc.compile(source=GOOD).opencl_source)
        except Exception as e:   # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(set(results)) == 1
    assert not list((tmp_path / "cache").rglob(".tmp-*"))
    assert len(list((tmp_path / "cache").rglob("*.json"))) == 1


def test_errors_are_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("SGCC_CACHE_DIR", str(tmp_path / "cache"))
    for _ in range(2):
        with pytest.raises(sgcc.CompileError):
            sgcc.compile(source=BAD)
    assert not list((tmp_path / "cache").rglob("*.json"))


def test_missing_executable(monkeypatch, tmp_path):
    monkeypatch.setenv("SGCC_EXE", str(tmp_path / "nope"))
    with pytest.raises(sgcc.ToolError, match="SGCC_EXE"):
        sgcc.compile(source=GOOD)


def test_python_m_sgcc_runs_the_command():
    out = subprocess.run([sys.executable, "-m", "sgcc", "--version"], capture_output=True,
                         text=True, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert out.returncode == 0 and "sgcc" in out.stdout


def test_test_kernels_translate():
    for f in sorted(KERNELS.glob("*.sgc")):
        assert sgcc.compile(path=f).kernels


def test_warnings_are_python_warnings_also_when_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("SGCC_CACHE_DIR", str(tmp_path / "cache"))
    src = ("[[reqd_sub_group_size(16)]]\n"
           "kernel void k16(global int *o) { o[0] = 1; }\n")
    for _ in range(2):   # the second comes from the cache
        with pytest.warns(sgcc.CompileWarning, match=r"module.sgc:2:13: warning: kernel "
                          r"'k16' is left out of the CUDA C output.*\[-Wtarget-unsupported\]"):
            m = sgcc.compile(source=src)
        assert m.diagnostics[0]["severity"] == "warning"
        assert not m.kernels[0].supported("cuda") and m.kernels[0].supported("opencl")


def test_utf8_source(tmp_path, monkeypatch):
    monkeypatch.setenv("SGCC_CACHE_DIR", str(tmp_path / "cache"))
    src = "/* Größe — ∑ */\nkernel void k(global int *o) { o[0] = 1; }\n"
    a = sgcc.compile(source=src)
    f = tmp_path / "u.sgc"
    f.write_bytes(src.encode())
    b = sgcc.compile(path=f)
    assert a.kernels[0].name == b.kernels[0].name == "k"
    assert sgcc.compile(source=src).opencl_source == a.opencl_source   # from the cache


def test_warning_options():
    src = ("[[reqd_sub_group_size(16)]]\n"
           "kernel void k16(global int *o) { o[0] = 1; }\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = sgcc.compile(source=src, options=["-Wno-target-unsupported"])
    assert m.diagnostics == ()
    with pytest.raises(sgcc.CompileError, match=r"error: kernel 'k16' is left out of the CUDA "
                       r"C output.*\[-Werror=target-unsupported\]"):
        sgcc.compile(source=src, werror=True)
    with pytest.raises(ValueError, match="set by sgcc.compile itself"):
        sgcc.compile(source=src, options="-o x.cl")


def test_missing_path_is_file_not_found(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for cache in (True, False):
        with pytest.raises(FileNotFoundError) as info:
            sgcc.compile(path="missing.sgc", cache=cache)
        e = info.value
        assert isinstance(e, sgcc.SourceNotFoundError) and isinstance(e, sgcc.SgccError)
        assert not isinstance(e, sgcc.ToolError)
        assert e.errno == errno.ENOENT and e.filename == "missing.sgc"
        assert "missing.sgc" in str(e)
    with pytest.raises(sgcc.SourceNotFoundError, match="nodir"):
        sgcc.compile(path=tmp_path / "nodir" / "k.sgc")


def fake_exe(tmp_path, body):
    """An executable shell script standing in for sgcc."""
    exe = tmp_path / "sgcc-fake"
    exe.write_text("#!/bin/sh\n" + body)
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe


def test_killed_by_signal_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv("SGCC_EXE", str(fake_exe(
        tmp_path, "echo 'sgcc: internal error in emit' >&2\nkill -SEGV $$\n")))
    with pytest.raises(sgcc.ToolError) as info:
        sgcc.compile(source=GOOD, cache=False)
    assert str(info.value) == ("sgcc was killed by signal SIGSEGV translating module.sgc:\n"
                               "sgcc: internal error in emit")
    monkeypatch.setenv("SGCC_EXE", str(fake_exe(tmp_path, "kill -ABRT $$\n")))
    with pytest.raises(sgcc.ToolError, match=r"^sgcc was killed by signal SIGABRT translating "
                       r"module.sgc \(it wrote nothing\)$"):
        sgcc.compile(source=GOOD, cache=False)
    monkeypatch.setenv("SGCC_EXE", str(fake_exe(tmp_path, "echo 'cannot write' >&2\nexit 3\n")))
    with pytest.raises(sgcc.ToolError, match=r"^sgcc exited with status 3 translating "
                       r"module.sgc:\ncannot write$"):
        sgcc.compile(source=GOOD, cache=False)


def test_timeout(tmp_path, monkeypatch):
    # sleep runs as a child of the shell: the whole process group must die,
    # or the child would keep the pipes open and compile() would wait for it.
    monkeypatch.setenv("SGCC_EXE", str(fake_exe(tmp_path, "sleep 60\necho late\n")))
    start = time.monotonic()
    with pytest.raises(sgcc.CompileTimeoutError, match=r"sgcc did not finish translating "
                       r"module.sgc within 0.5 s and was killed") as info:
        sgcc.compile(source=GOOD, cache=False, timeout=0.5)
    assert time.monotonic() - start < 10
    assert isinstance(info.value, TimeoutError) and isinstance(info.value, sgcc.ToolError)
    assert info.value.timeout == 0.5
    for bad in (0, -1, "10", True):
        with pytest.raises(ValueError, match="timeout must be a positive number"):
            sgcc.compile(source=GOOD, timeout=bad)
    monkeypatch.setenv("SGCC_EXE", REAL_EXE)
    assert sgcc.compile(source=GOOD, cache=False, timeout=None).kernels
    assert sgcc.compile(source=GOOD, cache=False, timeout=60).kernels


REAL_EXE = sgcc.find_executable()


def test_relative_sgcc_exe(tmp_path, monkeypatch):
    """SGCC_EXE relative to the caller's directory, though sgcc runs in
    another one for source=."""
    monkeypatch.chdir(os.path.dirname(REAL_EXE))
    monkeypatch.setenv("SGCC_EXE", os.path.join(".", os.path.basename(REAL_EXE)))
    assert sgcc.find_executable() == REAL_EXE
    assert sgcc.compile(source=GOOD, cache=False).kernels[0].name == "partial_sums"


@pytest.mark.skipif("SGCC_TEST_INSTALLED" in os.environ,
                    reason="the installed package is not in a checkout")
def test_development_tree_fallback(tmp_path, monkeypatch):
    """Without $SGCC_EXE the package in python/ of a checkout runs the
    build's compiler/sgcc ($SGCC_BUILD_DIR, else build/), before PATH."""
    from conftest import ROOT
    build_dir = os.path.dirname(os.path.dirname(REAL_EXE))   # .../<build>/compiler/sgcc
    assert os.path.basename(os.path.dirname(REAL_EXE)) == "compiler"
    monkeypatch.delenv("SGCC_EXE")
    monkeypatch.setenv("PATH", str(tmp_path))   # no sgcc there
    monkeypatch.setenv("SGCC_BUILD_DIR", build_dir)
    assert sgcc.find_executable() == str(ROOT / build_dir / "compiler" / "sgcc")
    # The default build/ of a checkout, seen by a copy of the package in a
    # tree laid out as the repository is (root and compiler/ meson.build).
    tree = tmp_path / "checkout"
    shutil.copytree(ROOT / "python" / "sgcc", tree / "python" / "sgcc",
                    ignore=shutil.ignore_patterns("__pycache__", "_bin"))
    (tree / "compiler").mkdir()
    for f in ("meson.build", "compiler/meson.build"):
        shutil.copy(ROOT / f, tree / f)
    (tree / "build" / "compiler").mkdir(parents=True)
    os.symlink(REAL_EXE, tree / "build" / "compiler" / "sgcc")
    code = ("import sgcc; print(sgcc.find_executable()); "
            "print(sgcc.compile(source='kernel void k(global int *o) { o[0] = 1; }', "
            "cache=False).kernels[0].name)")
    env = {k: v for k, v in os.environ.items() if k not in ("SGCC_EXE", "SGCC_BUILD_DIR")}
    env.update(PYTHONPATH=str(tree / "python"), PATH=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == [str(tree / "build" / "compiler" / "sgcc"), "k"]
    # Outside a checkout (no meson.build above python/): not found.
    (tree / "meson.build").unlink()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode != 0 and "sgcc executable not found" in out.stderr


def test_lazy_submodules():
    """`import sgcc` imports neither PyOpenCL nor CuPy nor the submodules
    that need them; they are attributes of the package all the same."""
    code = ("import sys, sgcc\n"
            "print(sorted(m for m in ('pyopencl', 'cupy', 'sgcc.pyopencl', 'sgcc.cupy', "
            "'sgcc.icd') if m in sys.modules))\n"
            "print('pyopencl' in dir(sgcc), 'cupy' in dir(sgcc))\n"
            "print(sgcc.cupy.__name__, 'cupy' in sys.modules)\n"
            "try:\n    sgcc.nope\nexcept AttributeError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["[]", "True True", "sgcc.cupy False",
                                       "module 'sgcc' has no attribute 'nope'"]
