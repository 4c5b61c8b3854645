/* intel_two_branches_plain_c: plain OpenCL C (sgcc's output of case.sgc with
 * the device library cut down to the five helpers the kernel calls; no
 * barriers, no sub-groups, no group functions).  Manifest: work-groups of
 * 32, 96 work-items, build option -DSGC_SPEC_2=8.  The Intel CPU runtime
 * gives wrong checksums (slot 0) for the work-items of the first branch
 * (work-item 1: 0x818026a58aee571e where the host oracle gives
 * 0xfdea522db20c4c51); PoCL 3.1 agrees with the oracle.  Commenting out the
 * max/safe_mod_ulong line in the first branch's loop, or the
 * iny ^ min(...) line in the else branch that those work-items never take,
 * makes Intel right.  Campaign seed 70108 wg k62 (third session), wrong on
 * every Intel tier. */
#define SGC_SC_sc1 ((short)(3))
#define SGC_SC_sc2 ((ulong)(2UL))
#define SGC_SC_scn3 ((int)(SGC_SPEC_2))
enum En4 { En4_0 = 0, En4_1 = 1 };
ulong mix_(ulong h, ulong v) {
    return (h ^ v) * 0x100000001b3UL + (v >> 7);
}
int safe_neg_int(int a) {
    return a == -2147483647 - 1 ? a : -a;
}
ulong safe_mod_ulong(ulong a, ulong b) {
    return b == 0 ? a : a % b;
}
int safe_shr_int(int a, ulong b) {
    return b >= 32u ? a : a >> b;
}
uint safe_div_uint(uint a, uint b) {
    return b == 0 ? a : a / b;
}
__kernel void k62_s70108(__global ulong *out, __global const int *in) {
    uint lid = get_local_id(0), gid = get_global_id(0), grp = get_group_id(0);
    size_t gsz = get_global_size(0);
    int inx = in[gid];
    long iny = (long)in[(gid + 5u) % 96u] * 65536 + inx;
    ulong cs = 0x111dcUL;
    if ((!gsz ^ gid) | lid) {
        int i832;
        for (i832 = 0; i832 < (SGC_SC_sc1 & 3); i832++) {
            uint ev833 = 0;
            if (inx ? false <= gsz : 0u <= gsz) {
                cs = mix_(cs, (ulong)(max(grp, gid) <= safe_mod_ulong(max(safe_neg_int(SGC_SC_sc1), i832), max(gsz, (size_t)min((int)SGC_SC_sc1, (int)(uchar)80)))));
                short v834 = 0;
            }
        }
        enum En4 ev835 = En4_1;
        ev835 |= 1;
        cs = mix_(cs, (ulong)(ev835 * 3 + En4_1));
        cs = mix_(cs, (ulong)(ev835 == En4_1));
        int v836 = 0;
    } else if (grp | (safe_div_uint(lid, 3) ^ ((ushort)65535 || 0UL))) {
        {
            if ((3 ^ SGC_SC_sc2) & safe_shr_int(3, gid)) {
                goto skip837;
            }
            char gx838 = 0;
            cs = mix_(cs, (ulong)(iny ^ min((ulong)gid, SGC_SC_sc2 - iny)));
        skip837:
            ;
            cs = mix_(cs, 3UL);
        }
        cs = mix_(cs, (ulong)inx);
        switch ((int)(SGC_SC_sc1 & 7)) {
        case 3:
        case SGC_SC_sc2:
            {
                cs = mix_(cs, (ulong)3);
                int a839[SGC_SC_scn3] = {0};
                uint v841 = 0;
            }
            break;
        case 6:
            {
                char a842[4] = {0};
            }
            break;
        }
        enum En4 ev844 = En4_1;
        cs = mix_(cs, (ulong)(ev844 * 3 + En4_1));
        cs = mix_(cs, (ulong)(ev844 == En4_0));
    }
    uchar a846[SGC_SC_scn3] = {0};
    out[gid * 4u + 1u] = 0u;
    out[gid * 4u + 2u] = 0u;
    out[gid * 4u + 3u] = 0u;
    out[gid * 4u] = cs;
}
