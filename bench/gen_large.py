#!/usr/bin/env python3
"""gen_large.py N OUT — writes an SGC file of about N lines: device functions,
kernels with loops, local tiles, structs and spec constants, the mix a real
kernel library has.  Deterministic for a given N."""
import sys

TEMPLATE = """\
typedef struct Pair{i} {{ float x; float y; }} Pair{i};

static float helper{i}(float a, float b, int k)
{{
    float acc = 0.0f;
    for (int j = 0; j < k; j++) {{
        acc += a * (float)j - b;
        if (acc > 100.0f)
            acc = acc * 0.5f;
    }}
    return acc;
}}

kernel void kernel{i}(global const float *in, global float *out, uint n)
{{
    local float tile[64];
    size_t gid = get_global_id(0);
    uint lid = (uint)get_local_id(0);
    Pair{i} p = {{ 1.0f, 2.0f }};
    tile[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    switch (lid % 4u) {{
    case 0: p.x += tile[lid]; break;
    case 1: p.y -= tile[lid]; break;
    default: p.x = helper{i}(p.x, p.y, 3); break;
    }}
    if (gid < n)
        out[gid] = p.x * p.y + (float)block{i};
}}

spec_const int block{i} = {i};
"""

def main():
    target, path = int(sys.argv[1]), sys.argv[2]
    per = TEMPLATE.count("\n")
    with open(path, "w") as f:
        for i in range(max(1, target // per)):
            # spec constants must precede their use: emit it first
            chunk = TEMPLATE.format(i=i)
            spec = chunk[chunk.index("spec_const"):]
            f.write(spec + chunk[:chunk.index("spec_const")])

main()
