#!/usr/bin/env python3
"""gen_reserved_names.py — regenerates compiler/emit/opencl/reserved_opencl.def and
compiler/emit/cuda/reserved_cuda.def, the names each target reserves or predeclares
(docs/LOWERING.md "Reserved names").  sgcc renames a user identifier found
there; the tables are generated once and committed, so sgcc needs neither
clang nor nvcc to build.

    scripts/gen_reserved_names.py OPENCL_C_H CUDA_AST_JSON CUDA_II CUDA_MACROS OCL_MACROS

  OPENCL_C_H     clang's opencl-c.h (its __ovld functions are the built-ins)
  CUDA_AST_JSON  `clang++ -x cuda -nocudainc -nocudalib --cuda-device-only
                  --cuda-gpu-arch=sm_80 -fsyntax-only -Xclang -ast-dump=json`
                  of CUDA_II
  CUDA_II        `nvcc -E -x cu empty.cu` (what nvcc's device pass sees)
  CUDA_MACROS    `nvcc -E -x cu empty.cu -Xcompiler -dM`, one #define a line
  OCL_MACROS     `clang -x cl -cl-std=CL3.0 -Xclang -finclude-default-header
                  -Xclang -cl-ext=+all -dM -E -`, one #define a line

Scope classes: EVERYWHERE names are renamed at every occurrence (keywords,
types, macros, built-in variables, and the functions of the target's device
API, which sgcc's own output may call from inside a user scope); FILE_SCOPE
names (the host C library and CUDA runtime API that nvcc's headers declare)
only when the unit declares something of that name at file scope, where it
would clash; inner declarations may shadow them.  Names starting with `_`
are left out: C reserves them for the implementation already.
"""
import bisect
import collections
import json
import re
import sys

CXX_KEYWORDS = """alignas alignof and and_eq asm auto bitand bitor bool break case catch char
char8_t char16_t char32_t class compl concept const consteval constexpr constinit const_cast
continue co_await co_return co_yield decltype default delete do double dynamic_cast else enum
explicit export extern false float for friend goto if inline int long mutable namespace new
noexcept not not_eq nullptr operator or or_eq private protected public register
reinterpret_cast requires return short signed sizeof static static_assert static_cast struct
switch template this thread_local throw true try typedef typeid typename union unsigned using
virtual void volatile wchar_t while xor xor_eq""".split()

# CUDA names sgcc's CUDA output defines or relies on outside the headers:
# the built-in variables, the OpenCL work-item functions of the prelude and
# the namespace of the device library.
CUDA_EXTRA = """threadIdx blockIdx blockDim gridDim warpSize dim3 sgc get_global_id get_local_id
get_group_id get_local_size get_global_size get_num_groups get_work_dim memcpy memset printf
malloc free assert""".split()

OPENCL_SCALARS = "char uchar short ushort int uint long ulong float double half bool quad".split()

# OpenCL C keywords, reserved words and built-in types (OpenCL C 3.0 §6.1,
# §6.3-6.4, §6.13-6.15) that are not already SGC keywords.
OPENCL_WORDS = """half pipe read_only write_only read_write __read_only __write_only
__read_write uniform generic __generic complex imaginary quad image1d_t image1d_array_t
image1d_buffer_t image2d_t image2d_array_t image2d_depth_t image2d_array_depth_t
image2d_msaa_t image2d_array_msaa_t image2d_msaa_depth_t image2d_array_msaa_depth_t image3d_t
sampler_t event_t queue_t clk_event_t ndrange_t reserve_id_t cl_mem_fence_flags
clk_profiling_info kernel_enqueue_flags_t memory_order memory_order_relaxed
memory_order_acquire memory_order_release memory_order_acq_rel memory_order_seq_cst
memory_scope memory_scope_work_item memory_scope_work_group memory_scope_device
memory_scope_all_svm_devices memory_scope_all_devices memory_scope_sub_group atomic_int
atomic_uint atomic_long atomic_ulong atomic_float atomic_double atomic_half atomic_flag
atomic_intptr_t atomic_uintptr_t atomic_size_t atomic_ptrdiff_t ptrdiff_t intptr_t uintptr_t
vec_step printf kernel_exec""".split()


def defines(path):
    names = set()
    for line in open(path):
        parts = line.split()
        if len(parts) >= 2 and parts[0] == "#define":
            names.add(re.sub(r"\(.*", "", parts[1]))
    return names


def opencl_names(opencl_c_h, macros_path):
    text = open(opencl_c_h).read()
    functions = set(m.group(1) for m in re.finditer(r"__ovld[^;(]*?\b([A-Za-z_]\w*)\(", text))
    vectors = set(s + str(n) for s in OPENCL_SCALARS for n in (2, 3, 4, 8, 16))
    return functions | vectors | set(OPENCL_WORDS) | defines(macros_path)


def cuda_names(ast_json, ii_path, macros_path):
    """EVERYWHERE: C++ keywords, macros, and what CUDA's own device headers
    (and the C math library they overload) declare; FILE_SCOPE: the rest
    of nvcc's global namespace (host C library, CUDA runtime API)."""
    marks = []
    for i, line in enumerate(open(ii_path), 1):
        m = re.match(r'# (\d+) "([^"]*)"', line)
        if m:
            marks.append((i, m.group(2)))
    lines = [m[0] for m in marks]

    def file_of(line):
        j = bisect.bisect_right(lines, line) - 1
        return marks[j][1] if j >= 0 else "?"

    by_file = collections.defaultdict(set)
    current = [0]

    def note(loc):
        if isinstance(loc, dict):
            if "line" in loc:
                current[0] = loc["line"]
            exp = loc.get("expansionLoc")
            if isinstance(exp, dict) and "line" in exp:
                current[0] = exp["line"]

    kinds = {"FunctionDecl", "VarDecl", "TypedefDecl", "CXXRecordDecl", "EnumDecl",
             "FunctionTemplateDecl", "TypeAliasDecl", "NamespaceDecl", "UsingDecl"}

    def walk(node):
        for c in node.get("inner", []) or []:
            note(c.get("range", {}).get("begin", {}))
            note(c.get("loc", {}))
            where = file_of(current[0])
            name = c.get("name")
            if c.get("kind") == "LinkageSpecDecl":
                walk(c)
            elif name and c.get("kind") in kinds:
                by_file[where].add(name)
            if c.get("kind") == "EnumDecl":
                for e in c.get("inner", []) or []:
                    if e.get("name"):
                        by_file[where].add(e["name"])
            note(c.get("range", {}).get("end", {}))

    walk(json.load(open(ast_json)))
    host_api = ("driver_types.h", "cuda_runtime_api.h", "library_types.h",
                "cuda_device_runtime_api.h", "/cuda_runtime.h", "channel_descriptor.h",
                "texture_types.h", "surface_types.h", "device_types.h",
                "cuda_texture_types.h", "cuda_surface_types.h")
    everywhere, file_scope = set(), set()
    for f, names in by_file.items():
        base = f.split("/")[-1]
        if ("/cuda" in f and not f.endswith(host_api)) or "math" in base:
            everywhere |= names
        else:
            file_scope |= names
    everywhere |= set(CXX_KEYWORDS) | set(CUDA_EXTRA) | defines(macros_path)
    return everywhere, file_scope - everywhere


def write(path, target, everywhere, file_scope):
    rows = [(n, "EVERYWHERE") for n in everywhere] + [(n, "FILE_SCOPE") for n in file_scope]
    rows = sorted((n, c) for n, c in rows if not n.startswith("_"))
    rows.sort(key=lambda r: r[0].encode())  # strcmp order: bsearch looks names up
    with open(path, "w") as out:
        out.write("/* %s — names %s reserves or predeclares (generated by\n"
                  " * scripts/gen_reserved_names.py; do not edit).  RESERVED(name, scope):\n"
                  " * EVERYWHERE renames every occurrence, FILE_SCOPE only when the unit declares\n"
                  " * the name at file scope.  ORDER: strcmp order (test_reserved_tables). */\n"
                  % (path.split("/")[-1], target))
        for name, scope in rows:
            out.write('RESERVED("%s", %s)\n' % (name, scope))


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    opencl_c_h, ast_json, ii, cuda_macros, ocl_macros = sys.argv[1:]
    write("compiler/emit/opencl/reserved_opencl.def", "OpenCL C", opencl_names(opencl_c_h, ocl_macros), set())
    write("compiler/emit/cuda/reserved_cuda.def", "CUDA C (nvcc and NVRTC)",
          *cuda_names(ast_json, ii, cuda_macros))


if __name__ == "__main__":
    main()
