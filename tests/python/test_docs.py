"""docs/PYTHON.md's PyOpenCL example runs as written (in a subprocess, as a
user would run it) and prints "ok"."""
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

pytest.importorskip("pyopencl")


def python_blocks(section):
    text = (ROOT / "docs" / "PYTHON.md").read_text()
    part = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", part, re.S)


def test_pyopencl_example_runs(tmp_path):
    (code,) = python_blocks("PyOpenCL")
    script = tmp_path / "example.py"
    script.write_text(code)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "\nok [" in out.stdout


def test_cupy_example_is_there():
    (code,) = python_blocks("CuPy")
    assert "sgcc.cupy.build(" in code and "assert" in code
