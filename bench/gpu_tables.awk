# gpu_tables.awk — Markdown tables from the records of bench/gpu_cuda.cu and
# bench/gpu_ocl.c (gpu_common.h: gb_record).  Input, tab-separated:
#   table  row  implementation  role  ms  rate  unit  check
# One table per `table`, one line per `row`, one column per implementation
# (sgcc's first, then the baselines; time, rate, and the share of the
# table's "ref" bandwidth where there is one), then one speed column per (sgcc implementation, baseline) pair:
# baseline time / sgcc time, so 1.00x or more means sgcc is at least as fast.
# Tables and rows keep the order in which they first appear.
BEGIN {
    FS = "\t"
    title["reduce"] = "Array reduction (sum)"
    title["groups_stream"] = "Group algorithms, streaming (1 round per element: bytes read + written)"
    title["groups_compute"] = "Group algorithms, compute (dependent rounds: group operations per second per work-item)"
    title["tiles"] = "Double-buffered tiles (bench/tiles.sgc); hand-written CUDA: cuda::barrier + cuda::memcpy_async (split), __syncthreads (plain)"
    title["matmul"] = "Spec-constant matmul vs its plain-argument twin (samples/matmul)"
}
NF >= 8 {
    t = $1; r = $2; im = $3
    if (!(t in seen_t)) { seen_t[t] = 1; tables[++nt] = t }
    if (!((t, r) in seen_r)) { seen_r[t, r] = 1; rows[t, ++nr[t]] = r }
    if (!((t, im) in seen_i)) {
        seen_i[t, im] = 1; impls[t, ++ni[t]] = im; role[t, im] = $4
    }
    ms[t, r, im] = $5; rate[t, r, im] = $6; unit[t, r, im] = $7; chk[t, r, im] = $8
    has[t, r, im] = 1
    if ($4 == "ref") { refrate[t] = $6; refrow[t] = r }
}
function cell(t, r, im,    s) {
    if (!has[t, r, im]) return ""
    s = sprintf("%.3f ms, %.0f %s", ms[t, r, im], rate[t, r, im], unit[t, r, im])
    if ((t in refrate) && r != refrow[t] && refrate[t] > 0)
        s = s sprintf(" (%.0f%%)", 100 * rate[t, r, im] / refrate[t])
    if (chk[t, r, im] != "ok") s = s " **" chk[t, r, im] "**"
    return s
}
END {
    for (k = 1; k <= nt; k++) {
        t = tables[k]
        printf "\n### %s\n\n", (t in title) ? title[t] : t
        if (t in refrate)
            printf "Percentages: share of the %s bandwidth in the same run.\n\n", refrow[t]
        # columns: sgcc implementations, then baselines, then references
        nc = 0
        for (pass = 1; pass <= 3; pass++)
            for (i = 1; i <= ni[t]; i++)
                if (role[t, impls[t, i]] == (pass == 1 ? "sgcc" : pass == 2 ? "base" : "ref"))
                    col[++nc] = impls[t, i]
        head = "| case |"; rule = "|---|"
        for (i = 1; i <= nc; i++) { head = head " " col[i] " |"; rule = rule "---:|" }
        np = 0
        for (i = 1; i <= ni[t]; i++) {
            if (role[t, impls[t, i]] != "sgcc") continue
            for (j = 1; j <= ni[t]; j++) {
                if (role[t, impls[t, j]] != "base") continue
                np++; ps[np] = impls[t, i]; pb[np] = impls[t, j]
                head = head " speed: " ps[np] " vs " pb[np] " |"; rule = rule "---:|"
            }
        }
        print head; print rule
        for (q = 1; q <= nr[t]; q++) {
            r = rows[t, q]; line = "| " r " |"
            for (i = 1; i <= nc; i++) line = line " " cell(t, r, col[i]) " |"
            for (p = 1; p <= np; p++) {
                v = ""
                if (has[t, r, ps[p]] && has[t, r, pb[p]] && ms[t, r, ps[p]] > 0)
                    v = sprintf("%.2fx", ms[t, r, pb[p]] / ms[t, r, ps[p]])
                line = line " " v " |"
            }
            print line
        }
    }
}
