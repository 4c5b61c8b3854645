#!/usr/bin/env python3
"""check_module.py SGCC SOURCE_ROOT READBACK CC [CC ARGS...] — TAP.

The module description (sgcc --emit-json, docs/module.schema.json) and the
exact spelling of spec-constant defaults (issue 25 items 5, 6, 9):

1. the schema is a valid Draft 2020-12 schema and rejects broken documents;
2. for every golden input, every sample and the inputs of tests/module,
   real output is valid, deterministic, the same on stdout (--emit-json -),
   and says what the --header header of the same run says: a C program
   that includes the header prints its tables (sgrt_module_desc) as JSON,
   and every fact is compared;
3. a module with every edge value of every spec-constant type (0.1f, -0.0,
   2.0f, denormals, FLT_MAX, DBL_MIN, infinities, NaN, INT_MIN, ULONG_MAX
   ...): a C program compares the header's table bit for bit with the same
   literals read by the host C compiler; the JSON default and
   default_spelling read back to the same bits; the emitted OpenCL C, built
   with no -D on each OpenCL platform present (READBACK, raw OpenCL), gives
   the same bits on the device;
4. a kernel CUDA cannot run (reqd_sub_group_size(16), fixed_size_group<64>)
   does not fail the module: a named warning, the kernel left out of the
   CUDA output only, and recorded in the JSON and the header.
"""
import copy
import glob
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

import jsonschema

sgcc, root, readback = (os.path.abspath(p) for p in sys.argv[1:4])
cc = sys.argv[4:]
here = os.path.join(root, "tests", "module")
schema = json.load(open(os.path.join(root, "docs", "module.schema.json")))
n = failed = 0


def check(name, ok, detail=""):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n, name))
    if not ok:
        failed += 1
        for line in str(detail).splitlines()[:30]:
            print("#   " + line)
    return ok


def skip(name, why):
    global n
    n += 1
    print("ok %d - %s # SKIP %s" % (n, name, why))


try:
    jsonschema.Draft202012Validator.check_schema(schema)
    check("the schema is a valid Draft 2020-12 schema", True)
except jsonschema.SchemaError as e:
    check("the schema is a valid Draft 2020-12 schema", False, e)
validator = jsonschema.Draft202012Validator(schema)


def schema_errors(doc):
    return sorted(e.message for e in validator.iter_errors(doc))


# ---- running sgcc ----------------------------------------------------------

def sgcc_run(src, out_dir, flags=(), extra=()):
    """sgcc -t all with --header and --emit-json; returns (proc, json text, header path)."""
    name = os.path.splitext(os.path.basename(src))[0]
    base = os.path.join(out_dir, name)
    args = [sgcc, "--color=never", "-t", "all", "-o", base, "--header", base + ".h",
            "--emit-json", base + ".json"] + list(flags) + list(extra) + [os.path.basename(src)]
    p = subprocess.run(args, cwd=os.path.dirname(src), capture_output=True, text=True)
    text = open(base + ".json").read() if os.path.exists(base + ".json") else ""
    return p, text, base + ".h"


# ---- the header's facts, printed by a C program that includes it -----------

DUMP_C = r"""
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "%(header)s"

static const char *const types[] = {"none",
#define X(NAME, name, ctype, member) #name,
    SGRT_TYPES(X)
#undef X
};
static const char *const kinds[] = {"global", "constant", "local", "scalar"};

static void spec_bits(const sgrt_spec_desc *s)
{
    const sgrt_value *v = &s->default_value;
    uint32_t u32;
    uint64_t u64;
    switch (s->type) {
    case SGRT_TYPE_FLOAT: memcpy(&u32, &v->f, 4); printf("\"f:%%08" PRIx32 "\"", u32); break;
    case SGRT_TYPE_DOUBLE: memcpy(&u64, &v->d, 8); printf("\"d:%%016" PRIx64 "\"", u64); break;
    case SGRT_TYPE_BOOL: printf("\"i:%%d\"", v->b ? 1 : 0); break;
    case SGRT_TYPE_CHAR: printf("\"i:%%d\"", v->c); break;
    case SGRT_TYPE_UCHAR: printf("\"i:%%u\"", v->uc); break;
    case SGRT_TYPE_SHORT: printf("\"i:%%d\"", v->s); break;
    case SGRT_TYPE_USHORT: printf("\"i:%%u\"", v->us); break;
    case SGRT_TYPE_INT: printf("\"i:%%" PRId32 "\"", v->i); break;
    case SGRT_TYPE_UINT: printf("\"i:%%" PRIu32 "\"", v->ui); break;
    case SGRT_TYPE_LONG: printf("\"i:%%" PRId64 "\"", v->l); break;
    case SGRT_TYPE_ULONG: printf("\"i:%%" PRIu64 "\"", v->ul); break;
    default: printf("null"); break;
    }
}

int main(void)
{
    const sgrt_module_desc *m = &%(module)s_module;
    printf("{\"name\": \"%%s\", \"fp64\": %%d, \"has_opencl\": %%d, \"has_cuda\": %%d, \"specs\": [",
           m->name, m->needs_fp64, m->sources[SGRT_BACKEND_OPENCL] != NULL, m->sources[SGRT_BACKEND_CUDA] != NULL);
    for (uint32_t i = 0; i < m->spec_count; i++) {
        const sgrt_spec_desc *s = &m->specs[i];
        printf("%%s{\"name\": \"%%s\", \"id\": %%" PRIu32 ", \"type\": \"%%s\", \"required\": %%d, \"bits\": ",
               i ? ", " : "", s->name, s->id, types[s->type], s->required);
        if (s->required)
            printf("null");
        else
            spec_bits(s);
        printf("}");
    }
    printf("], \"kernels\": [");
    for (uint32_t i = 0; i < m->kernel_count; i++) {
        const sgrt_kernel_desc *k = &m->kernels[i];
        printf("%%s{\"name\": \"%%s\", \"wg\": [%%u, %%u, %%u], \"sg\": %%u, \"sub_groups\": %%d, "
               "\"split_barriers\": %%d, \"non_uniform_groups\": %%d, ",
               i ? ", " : "", k->name, k->reqd_work_group_size[0], k->reqd_work_group_size[1],
               k->reqd_work_group_size[2], k->reqd_sub_group_size, k->needs_sub_groups,
               k->needs_split_barriers, k->needs_non_uniform_groups);
#if SGRT_MODULE_ABI >= 2
        printf("\"unsupported\": [");
        for (int b = 0; b < 2; b++) {
            printf(b ? ", " : "");
            if (k->unsupported[b])
                printf("\"%%s\"", k->unsupported[b]);
            else
                printf("null");
        }
        printf("], ");
#endif
        printf("\"params\": [");
        for (uint32_t p = 0; p < k->param_count; p++)
            printf("%%s{\"name\": \"%%s\", \"kind\": \"%%s\", \"type\": \"%%s\", \"size\": %%zu}",
                   p ? ", " : "", k->params[p].name, kinds[k->params[p].kind],
                   types[k->params[p].type], k->params[p].size);
        printf("]}");
    }
    printf("]}\n");
    return 0;
}
"""


def compile_and_run(c_text, work, name, extra_inc):
    c_path = os.path.join(work, name + ".c")
    exe = os.path.join(work, name)
    open(c_path, "w").write(c_text)
    # -iquote: a module named like a system header (features.h) must not
    # stand in for it.
    args = cc + ["-std=c17", "-Wall", "-Wextra", "-Werror", "-I", os.path.join(root, "runtime"),
                 "-iquote", extra_inc, "-o", exe, c_path, "-lm"]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr
    r = subprocess.run([exe], capture_output=True, text=True)
    return (r.stdout if r.returncode == 0 else None), r.stderr


def header_facts(header, module, work):
    text = DUMP_C % {"header": os.path.basename(header), "module": module}
    out, err = compile_and_run(text, work, module + "_dump", os.path.dirname(header))
    return (json.loads(out), "") if out else (None, err)


# ---- values: the bits a JSON default or a C spelling stands for ------------

def float_bits(value, kind):
    return "f:%08x" % struct.unpack("<I", struct.pack("<f", value))[0] if kind == "float" \
        else "d:%016x" % struct.unpack("<Q", struct.pack("<d", value))[0]


def spelled_value(spelling, kind):
    """The value of a default_spelling, read independently of sgcc."""
    s = spelling.strip()
    m = re.fullmatch(r"\((-?)1\.0f?/0\.0f?\)", s)
    if m:
        return -math.inf if m.group(1) else math.inf
    if re.fullmatch(r"\(0\.0f?/0\.0f?\)", s):
        return math.nan
    if kind in ("float", "double"):
        if kind == "float" and not s.endswith("f"):
            raise ValueError("float spelling without f: " + s)
        return float.fromhex(s[:-1] if kind == "float" else s)
    m = re.fullmatch(r"\((-\d+)L?-1\)", s)
    if m:
        return int(m.group(1)) - 1
    return int(re.sub(r"(UL|u|L)$", "", s))


def default_bits(value, kind):
    if kind in ("float", "double"):
        return float_bits(value, kind)
    return "i:%d" % int(value)


def same_bits(a, b):
    """Bits equal; any NaN equals any NaN (C's 0.0f/0.0f sign varies)."""
    def is_nan(bits):
        if bits.startswith("f:"):
            return struct.unpack("<f", struct.pack("<I", int(bits[2:], 16)))[0] != \
                struct.unpack("<f", struct.pack("<I", int(bits[2:], 16)))[0]
        if bits.startswith("d:"):
            return math.isnan(struct.unpack("<d", struct.pack("<Q", int(bits[2:], 16)))[0])
        return False
    return a == b or (is_nan(a) and is_nan(b))


# ---- JSON against the header ----------------------------------------------

def compare_specs(name, doc, facts):
    ok = len(doc["spec_constants"]) == len(facts["specs"])
    detail = []
    for js, hs in zip(doc["spec_constants"], facts["specs"]):
        kind = js["type"]
        for key in ("name", "id", "type", "required"):
            if js[key] != (bool(hs[key]) if key == "required" else hs[key]):
                ok = False
                detail.append("%s: %s %r != header %r" % (js["name"], key, js[key], hs[key]))
        if js["macro"] != "SGC_SPEC_%d" % js["id"]:
            ok = False
            detail.append("%s: macro %s" % (js["name"], js["macro"]))
        if js["required"]:
            continue
        spelled = default_bits(spelled_value(js["default_spelling"], kind), kind)
        if not same_bits(spelled, hs["bits"]):
            ok = False
            detail.append("%s: default_spelling %s is %s, header %s"
                          % (js["name"], js["default_spelling"], spelled, hs["bits"]))
        if js["default"] is not None:
            if kind == "bool":
                got = "i:%d" % int(js["default"])
            else:
                got = default_bits(js["default"], kind)
            if got != hs["bits"]:
                ok = False
                detail.append("%s: default %r is %s, header %s" % (js["name"], js["default"], got,
                                                                   hs["bits"]))
        elif kind not in ("float", "double") or math.isfinite(spelled_value(js["default_spelling"], kind)):
            ok = False
            detail.append("%s: default null for a finite value" % js["name"])
    check("%s: spec constants agree with the header" % name, ok, "\n".join(detail))


def expected_wg(js):
    wg = js["reqd_work_group_size"]
    if wg is None:
        return [0, 0, 0]
    return [0 if isinstance(d, dict) else d for d in wg]   # build time only: 0 in the header


def compare_kernels(name, doc, facts):
    ok = len(doc["kernels"]) == len(facts["kernels"])
    detail = []
    for jk, hk in zip(doc["kernels"], facts["kernels"]):
        want = {
            "name": jk["name"], "wg": expected_wg(jk), "sg": jk["reqd_sub_group_size"] or 0,
            "sub_groups": int(jk["requires"]["sub_groups"]),
            "split_barriers": int(jk["requires"]["split_barriers"]),
            "non_uniform_groups": int(jk["requires"]["non_uniform_groups"]),
            "params": [{"name": p["name"], "kind": p["kind"], "type": p["type"] or "none",
                        "size": p["size"]} for p in jk["params"]],
        }
        if "unsupported" in hk:
            want["unsupported"] = [jk["backends"]["opencl"]["reason"],
                                   jk["backends"]["cuda"]["reason"]]
        for key, value in want.items():
            if hk.get(key) != value:
                ok = False
                detail.append("%s: %s %r != header %r" % (jk["name"], key, value, hk.get(key)))
        for b in ("opencl", "cuda"):
            sup = jk["backends"][b]
            if sup["supported"] != (sup["reason"] is None):
                ok = False
                detail.append("%s: %s supported/reason disagree" % (jk["name"], b))
    check("%s: kernels agree with the header" % name, ok, "\n".join(detail))
    union = {k: any(kk["requires"][k] for kk in doc["kernels"])
             for k in ("sub_groups", "non_uniform_groups", "split_barriers",
                       "work_group_collectives")}
    union["fp64"] = bool(facts["fp64"])
    check("%s: module requires = union of kernels, fp64 as the header" % name,
          doc["requires"] == union, "%r != %r" % (doc["requires"], union))


def check_input(src, flags=(), label=None):
    label = label or os.path.relpath(src, root)
    with tempfile.TemporaryDirectory() as work:
        p, text, header = sgcc_run(src, work, flags)
        if not check("%s: sgcc --header --emit-json exits 0" % label, p.returncode == 0, p.stderr):
            return None
        try:
            doc = json.loads(text)
        except ValueError as e:
            check("%s: one JSON document" % label, False, e)
            return None
        errors = schema_errors(doc)
        check("%s: valid against the schema" % label, not errors, "\n".join(errors[:5]))
        again = subprocess.run([sgcc, "-t", "opencl", "-o", os.path.join(work, "again.cl"),
                                "--emit-json", "-"] + list(flags) + [os.path.basename(src)],
                               cwd=os.path.dirname(src), capture_output=True, text=True)
        check("%s: --emit-json - writes the same bytes to stdout" % label,
              again.returncode == 0 and again.stdout == text, again.stderr)
        module = doc["module"]
        facts, err = header_facts(header, module, work)
        if not check("%s: a C program including the header compiles and runs" % label,
                     facts is not None, err):
            return doc
        check("%s: module name and source file" % label,
              doc["module"] == facts["name"] and doc["source_file"] == os.path.basename(src),
              "%s / %s" % (doc["module"], facts["name"]))
        compare_specs(label, doc, facts)
        compare_kernels(label, doc, facts)
        return doc


# ---- 1. the schema rejects broken documents --------------------------------

def negative_schema_checks(doc):
    broken = []
    d = copy.deepcopy(doc); del d["kernels"]; broken.append(("no kernels key", d))
    d = copy.deepcopy(doc); d["format_version"] = 2; broken.append(("another version", d))
    d = copy.deepcopy(doc); d["extra"] = 1; broken.append(("an unknown key", d))
    if doc["kernels"]:
        d = copy.deepcopy(doc); d["kernels"][0]["backends"]["cuda"] = {"supported": False, "reason": None}
        broken.append(("unsupported without a reason", d))
        d = copy.deepcopy(doc); d["kernels"][0]["reqd_sub_group_size"] = "16"
        broken.append(("a size as a string", d))
    if doc["kernels"] and doc["kernels"][0]["params"]:
        d = copy.deepcopy(doc); d["kernels"][0]["params"][0]["kind"] = "private"
        broken.append(("a private parameter", d))
    if doc["spec_constants"]:
        d = copy.deepcopy(doc); d["spec_constants"][0]["type"] = "half"
        broken.append(("a half spec constant", d))
        d = copy.deepcopy(doc); d["spec_constants"][0]["macro"] = "SPEC_0"
        broken.append(("a wrong macro", d))
    for what, d in broken:
        check("the schema rejects %s" % what, bool(schema_errors(d)))


# ---- 3. edge values ---------------------------------------------------------

# (name, type, literal in C and SGC).  The host C compiler's reading of the
# literal is the reference: it owes nothing to sgcc.
EDGES = [
    ("f_tenth", "float", "0.1f"), ("f_negzero", "float", "-0.0f"), ("f_zero", "float", "0.0f"),
    ("f_two", "float", "2.0f"), ("f_max", "float", "3.40282347e+38f"),
    ("f_min", "float", "1.17549435e-38f"), ("f_denorm", "float", "1.40129846e-45f"),
    ("f_negdenorm", "float", "-1.0e-40f"), ("f_rounds", "float", "16777217.0f"),
    ("f_big", "float", "1e30f"), ("f_inf", "float", "1.0f / 0.0f"),
    ("f_neginf", "float", "-1.0f / 0.0f"), ("f_nan", "float", "0.0f / 0.0f"),
    ("f_from_double", "float", "0.1"),
    ("d_tenth", "double", "0.1"), ("d_negzero", "double", "-0.0"), ("d_two", "double", "2.0"),
    ("d_max", "double", "1.7976931348623157e308"), ("d_min", "double", "2.2250738585072014e-308"),
    ("d_denorm", "double", "4.9406564584124654e-324"), ("d_third", "double", "1.0 / 3.0"),
    ("d_inf", "double", "1.0 / 0.0"), ("d_nan", "double", "0.0 / 0.0"),
    ("d_from_float", "double", "0.1f"),
    ("b_true", "bool", "true"), ("c_min", "char", "-128"), ("uc_max", "uchar", "255"),
    ("s_min", "short", "-32768"), ("us_max", "ushort", "65535"),
    ("i_min", "int", "-2147483647 - 1"), ("u_max", "uint", "4294967295u"),
    ("l_min", "long", "-9223372036854775807L - 1"), ("ul_max", "ulong", "18446744073709551615ul"),
]
C_TYPES = {"float": "float", "double": "double", "bool": "bool", "char": "int8_t",
           "uchar": "uint8_t", "short": "int16_t", "ushort": "uint16_t", "int": "int32_t",
           "uint": "uint32_t", "long": "int64_t", "ulong": "uint64_t"}
MEMBERS = {"float": "f", "double": "d", "bool": "b", "char": "c", "uchar": "uc", "short": "s",
           "ushort": "us", "int": "i", "uint": "ui", "long": "l", "ulong": "ul"}


def edge_source():
    lines = ["/* Generated by tests/module/check_module.py: every edge value. */"]
    for name, ty, lit in EDGES:
        lines.append("spec_const %s %s = %s;" % (ty, name, lit))
    lines.append("")
    lines.append("kernel void dump(global float *f, global double *d, global long *l)")
    lines.append("{")
    counts = {"f": 0, "d": 0, "l": 0}
    for name, ty, lit in EDGES:
        buf = "f" if ty == "float" else "d" if ty == "double" else "l"
        lines.append("    %s[%d] = %s;" % (buf, counts[buf], name if buf != "l" else "(long)" + name))
        counts[buf] += 1
    lines.append("}")
    return "\n".join(lines) + "\n", counts


def host_bits_program(module):
    """C: the header's table against the host compiler's literals, bit for bit."""
    out = ["#include <inttypes.h>", "#include <math.h>", "#include <stdio.h>",
           "#include <string.h>", '#include "%s.h"' % module, "", "int main(void)", "{",
           "    int bad = 0;"]
    for i, (name, ty, lit) in enumerate(EDGES):
        ct, mem = C_TYPES[ty], MEMBERS[ty]
        out.append("    { %s want = (%s)(%s); %s got = %s_specs[%d].default_value.%s;"
                   % (ct, ct, lit, ct, module, i, mem))
        if ty in ("float", "double"):
            out.append("      int same = memcmp(&want, &got, sizeof want) == 0 || "
                       "(isnan(want) && isnan(got));")
        else:
            out.append("      int same = want == got;")
        bits = "uint32_t" if ty == "float" else "uint64_t"
        if ty in ("float", "double"):
            out.append("      %s w; memcpy(&w, &want, sizeof w);" % bits)
            out.append('      printf("%s %s:%%0%d" PRIx%s "\\n", w);' % (
                name, ty[0], 8 if ty == "float" else 16, "32" if ty == "float" else "64"))
        else:
            fmt = "PRIu64" if ty in ("uchar", "ushort", "uint", "ulong") else "PRId64"
            cast = "uint64_t" if fmt == "PRIu64" else "int64_t"
            out.append('      printf("%s i:%%" %s "\\n", (%s)want);' % (name, fmt, cast))
        out.append('      if (!same) { fprintf(stderr, "%s: header differs\\n"); bad = 1; } }'
                   % name)
    out += ["    return bad;", "}"]
    return "\n".join(out) + "\n"


def check_edges():
    with tempfile.TemporaryDirectory() as work:
        source, counts = edge_source()
        src = os.path.join(work, "edges.sgc")
        open(src, "w").write(source)
        p, text, header = sgcc_run(src, work)
        if not check("edges: sgcc exits 0", p.returncode == 0, p.stderr):
            return
        doc = json.loads(text)
        check("edges: valid against the schema", not schema_errors(doc))
        out, err = compile_and_run(host_bits_program("edges"), work, "edges_bits", work)
        if not check("edges: the header compiles with -Wall -Wextra -Werror and its table "
                     "equals the host compiler's literals bit for bit", out is not None, err):
            return
        host = dict(line.split() for line in out.splitlines())
        detail = []
        for js in doc["spec_constants"]:
            kind = js["type"]
            spelled = default_bits(spelled_value(js["default_spelling"], kind), kind)
            if not same_bits(spelled, host[js["name"]]):
                detail.append("%s: default_spelling %s -> %s, host %s"
                              % (js["name"], js["default_spelling"], spelled, host[js["name"]]))
            if js["default"] is not None:
                got = "i:%d" % int(js["default"]) if kind == "bool" else default_bits(js["default"], kind)
                if got != host[js["name"]]:
                    detail.append("%s: default %r -> %s, host %s" % (js["name"], js["default"],
                                                                     got, host[js["name"]]))
            if kind in ("float", "double") and js["default"] is not None:
                if not isinstance(js["default"], float):
                    detail.append("%s: default %r is not a JSON float" % (js["name"], js["default"]))
        check("edges: JSON default and default_spelling read back as the host's bits",
              not detail, "\n".join(detail))
        facts, err = header_facts(header, "edges", work)
        if facts:
            compare_specs("edges", doc, facts)
        cl = os.path.join(work, "edges.cl")
        for spelled in ("(float)(0x1.99999ap-4f)", "(double)(-0x0p+0)", "(float)(0x1p+1f)"):
            check("edges: OpenCL default spelled %s" % spelled, spelled in open(cl).read())
        readback_on_devices(cl, counts, host)


def opencl_env():
    env = dict(os.environ)
    script = os.path.join(root, "scripts", "intel-ocl-env.sh")
    p = subprocess.run(["bash", script], capture_output=True, text=True)
    for m in re.finditer(r"export (\w+)=(?:'([^']*)'|\"([^\"]*)\"|(\S*))", p.stdout):
        env[m.group(1)] = m.group(2) or m.group(3) or m.group(4) or ""
    return env


def readback_on_devices(cl, counts, host):
    env = opencl_env()
    floats = [(nm, ty) for nm, ty, _ in EDGES if ty == "float"]
    doubles = [(nm, ty) for nm, ty, _ in EDGES if ty == "double"]
    longs = [(nm, ty) for nm, ty, _ in EDGES if ty not in ("float", "double")]
    for platform in ("Intel", "Portable Computing Language"):
        r = subprocess.run([readback, cl, platform, str(counts["f"]), str(counts["d"]),
                            str(counts["l"])], capture_output=True, text=True, env=env,
                           timeout=600)
        label = "edges: emitted OpenCL C built with no -D on %s gives the defaults bit for bit" % platform
        if r.returncode == 77:
            skip(label, "no such OpenCL platform")
            continue
        if not check(label + " (ran)", r.returncode == 0, r.stderr):
            continue
        got = {}
        for line in r.stdout.splitlines():
            kind, index, value = line.split()
            table = floats if kind == "f" else doubles if kind == "d" else longs
            nm, ty = table[int(index)]
            if kind == "l":
                v = int(value)
                if ty in ("uchar", "ushort", "uint", "ulong"):
                    v &= (1 << 64) - 1
                got[nm] = "i:%d" % v
            else:
                got[nm] = "%s:%s" % (kind, value[2:])
        detail = ["%s: device %s, host %s" % (nm, got.get(nm), host[nm])
                  for nm, _, _ in EDGES if not same_bits(got.get(nm, "?"), host[nm])]
        check(label, not detail, "\n".join(detail))


# ---- 4. a kernel CUDA cannot run ------------------------------------------

def check_unsupported():
    src = os.path.join(here, "cuda_unsupported.sgc")
    doc = check_input(src)
    if not doc:
        return
    with tempfile.TemporaryDirectory() as work:
        p, _, _ = sgcc_run(src, work)
        warnings = re.findall(r"warning: kernel '(\w+)' is left out of the CUDA C output: .*"
                              r"\[-Wtarget-unsupported\]", p.stderr)
        check("cuda_unsupported: one named warning per kernel left out",
              sorted(warnings) == ["sixteen", "wide"], p.stderr)
        cu = open(os.path.join(work, "cuda_unsupported.cu")).read()
        ocl = open(os.path.join(work, "cuda_unsupported.cl")).read()
        check("cuda_unsupported: CUDA output keeps 'plain', leaves 'sixteen', 'wide' and their "
              "64-wide helper out",
              "void plain(" in cu and "void sixteen(" not in cu and "void wide(" not in cu
              and "helper64(" not in cu, cu[-2000:])
        check("cuda_unsupported: OpenCL output keeps every kernel",
              all("void %s(" % k in ocl for k in ("plain", "sixteen", "wide")))
        nvcc = shutil.which("nvcc")
        if nvcc:
            r = subprocess.run([nvcc, "-arch=sm_90", "-c", "-x", "cu", "-o",
                                os.path.join(work, "cu.o"), os.path.join(work, "cuda_unsupported.cu")],
                               capture_output=True, text=True)
            check("cuda_unsupported: the CUDA output without them compiles with nvcc",
                  r.returncode == 0, r.stderr)
        else:
            skip("cuda_unsupported: the CUDA output without them compiles with nvcc", "no nvcc")
        werror = subprocess.run([sgcc, "-t", "all", "-o", os.path.join(work, "w"),
                                 "-Werror=target-unsupported", "cuda_unsupported.sgc"],
                                cwd=here, capture_output=True, text=True)
        check("cuda_unsupported: -Werror=target-unsupported makes it an error (exit 1)",
              werror.returncode == 1, werror.stderr)
        quiet = subprocess.run([sgcc, "-t", "all", "-o", os.path.join(work, "q"),
                                "-Wno-target-unsupported", "cuda_unsupported.sgc"],
                               cwd=here, capture_output=True, text=True)
        check("cuda_unsupported: -Wno-target-unsupported silences it",
              quiet.returncode == 0 and "warning" not in quiet.stderr, quiet.stderr)
    kernels = {k["name"]: k for k in doc["kernels"]}
    want = {"plain": None,
            "sixteen": "requires sub-group size 16, but CUDA warps have 32 threads",
            "wide": "uses fixed_size_group<64>, larger than a CUDA warp (32 threads)"}
    got = {k: kernels[k]["backends"]["cuda"]["reason"] for k in want if k in kernels}
    check("cuda_unsupported: JSON records why CUDA cannot run each kernel", got == want, got)
    check("cuda_unsupported: OpenCL runs all three",
          all(kernels[k]["backends"]["opencl"]["supported"] for k in want if k in kernels))
    with tempfile.TemporaryDirectory() as work:
        only = subprocess.run([sgcc, "-t", "cuda", "-o", os.path.join(work, "x.cu"),
                               "only_sixteen.sgc"], cwd=here, capture_output=True, text=True)
        check("only_sixteen: -t cuda with no kernel CUDA can run is an error, no output",
              only.returncode == 1 and "cannot run on CUDA" in only.stderr
              and not os.path.exists(os.path.join(work, "x.cu")), only.stderr)
        both = subprocess.run([sgcc, "-t", "all", "-o", os.path.join(work, "y"),
                               "only_sixteen.sgc"], cwd=here, capture_output=True, text=True)
        check("only_sixteen: -t all writes both (CUDA without the kernel), with a warning",
              both.returncode == 0 and os.path.exists(os.path.join(work, "y.cu"))
              and "-Wtarget-unsupported" in both.stderr, both.stderr)


# ---- facts known from the source -------------------------------------------

def check_known_facts():
    """tests/module/shapes.sgc, read by a person: what each kernel needs."""
    with tempfile.TemporaryDirectory() as work:
        p, text, _ = sgcc_run(os.path.join(here, "shapes.sgc"), work)
    if not check("shapes: sgcc exits 0", p.returncode == 0, p.stderr):
        return
    doc = json.loads(text)
    kernels = {k["name"]: k for k in doc["kernels"]}
    want = {  # kernel: (sub_groups, non_uniform_groups, work_group_collectives)
        "by_spec": (False, False, False), "through_helper": (False, False, True),
        "ballots": (True, True, False), "fixed": (False, False, True),
    }
    got = {k: tuple(kernels[k]["requires"][r] for r in
                    ("sub_groups", "non_uniform_groups", "work_group_collectives"))
           for k in want if k in kernels}
    check("shapes: requires per kernel (a collective through a helper counts)", got == want,
          "%r" % got)
    specs = {s["name"]: s for s in doc["spec_constants"]}
    check("shapes: explicit IDs kept, the others the smallest unused",
          [(s, specs[s]["id"]) for s in ("width", "block", "scale", "flag")]
          == [("width", 7), ("block", 0), ("scale", 42), ("flag", 1)], specs)
    check("shapes: a required constant has no default",
          specs["scale"]["required"] and specs["scale"]["default"] is None
          and specs["scale"]["default_spelling"] is None)
    check("shapes: a work-group size from a spec constant names it",
          kernels["by_spec"]["reqd_work_group_size"]
          == [{"spec_constant": "block", "id": 0}, 1, 1]
          and kernels["fixed"]["reqd_work_group_size"] == [64, 2, 1],
          kernels["by_spec"]["reqd_work_group_size"])
    params = [(p["name"], p["kind"], p["type"], p["size"], p["const"])
              for p in kernels["by_spec"]["params"] + kernels["fixed"]["params"]]
    check("shapes: parameters", params == [
        ("in", "global", "float", 4, True), ("out", "global", "float", 4, False),
        ("tmp", "local", "float", 4, False), ("p", "scalar", None, 8, False),
        ("table", "constant", "int", 4, False), ("out", "global", "long", 8, False),
        ("n", "scalar", "ulong", 8, False), ("c", "scalar", "char", 1, False)], params)


# ---- main -------------------------------------------------------------------

inputs = sorted(glob.glob(os.path.join(root, "tests", "golden", "*.sgc")))
inputs += sorted(glob.glob(os.path.join(root, "samples", "**", "*.sgc"), recursive=True))
inputs += sorted(p for p in glob.glob(os.path.join(here, "*.sgc"))
                 if not p.endswith("cuda_unsupported.sgc"))
first = None
for src in inputs:
    flags_file = os.path.splitext(src)[0] + ".flags"
    flags = open(flags_file).read().split() if os.path.exists(flags_file) else []
    doc = check_input(src, flags)
    if doc and doc["kernels"] and doc["spec_constants"] and doc["kernels"][0]["params"] and not first:
        first = doc
if first:
    negative_schema_checks(first)
check_known_facts()
check_edges()
check_unsupported()
print("1..%d" % n)
sys.exit(1 if failed else 0)
