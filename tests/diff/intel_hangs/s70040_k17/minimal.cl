#pragma OPENCL EXTENSION cl_khr_fp64 : enable
/* Seed 70040 sg k17, reduced to plain OpenCL C (no sgcc helper library; the
 * generator's pure helper fn11 and the Csmith-style safe_* guards are kept
 * verbatim).  Launch: global 8, local 8 (reqd_work_group_size(8,1,1) as the
 * original); arg 0 global ulong out[80] (zeroed), arg 1 global const int in[8].
 * Never finishes on Intel(R) OpenCL (CPU runtime).  control.cl differs only in
 * the loop of the branch marked NEVER EXECUTED (an extra n < 2 bound there),
 * and finishes. */
struct S5 {
    uchar f0;
};
struct S6 {
    uint f0;
};
enum En7 {
    En7_0 = 2,
    En7_1 = -1
};
union Un8 {
    int i;
    long l;
    short s;
};
struct In9 {
    short a;
    short b[3];
};
struct Nn10 {
    ushort x;
    struct In9 sub;
    uint arr[2];
};
_Static_assert(sizeof(long) == 8, "LP64");
ulong mix_(ulong h, ulong v) {
 return (h ^ v) * 0x100000001b3UL + (v >> 7);
}
ulong f2u(double x) {
    if (x != x) {
 return 7UL;
    }
 if (x > 1e18) {
 return 11UL;
    }
 if (x < -1e18) {
 return 13UL;
    }
 return (ulong)(long)x;
}
int safe_add_int(int a, int b) {
 return (b > 0 && a > 2147483647 - b) || (b < 0 && a < -2147483647 - 1 - b) ? a : a + b;
}
int safe_sub_int(int a, int b) {
 return (b < 0 && a > 2147483647 + b) || (b > 0 && a < -2147483647 - 1 + b) ? a : a - b;
}
int safe_mul_int(int a, int b) {
 return (a > 0 && b > 0 && a > 2147483647 / b) || (a > 0 && b <= 0 && b < (-2147483647 - 1) / a) || (a <= 0 && b > 0 && a < (-2147483647 - 1) / b) || (a < 0 && b <= 0 && a != 0 && b < 2147483647 / a) ? a : a * b;
}
int safe_div_int(int a, int b) {
 return b == 0 || (a == -2147483647 - 1 && b == -1) ? a : a / b;
}
int safe_mod_int(int a, int b) {
 return b == 0 || (a == -2147483647 - 1 && b == -1) ? a : a % b;
}
int safe_neg_int(int a) {
 return a == -2147483647 - 1 ? a : -a;
}
int safe_shl_int(int a, ulong b) {
 return a < 0 || b >= 32u || a > 2147483647 >> b ? a : a << b;
}
int safe_shr_int(int a, ulong b) {
 return b >= 32u ? a : a >> b;
}
long safe_add_long(long a, long b) {
 return (b > 0 && a > 9223372036854775807L - b) || (b < 0 && a < -9223372036854775807L - 1 - b) ? a : a + b;
}
long safe_sub_long(long a, long b) {
 return (b < 0 && a > 9223372036854775807L + b) || (b > 0 && a < -9223372036854775807L - 1 + b) ? a : a - b;
}
long safe_mul_long(long a, long b) {
 return (a > 0 && b > 0 && a > 9223372036854775807L / b) || (a > 0 && b <= 0 && b < (-9223372036854775807L - 1) / a) || (a <= 0 && b > 0 && a < (-9223372036854775807L - 1) / b) || (a < 0 && b <= 0 && a != 0 && b < 9223372036854775807L / a) ? a : a * b;
}
long safe_div_long(long a, long b) {
 return b == 0 || (a == -9223372036854775807L - 1 && b == -1) ? a : a / b;
}
long safe_mod_long(long a, long b) {
 return b == 0 || (a == -9223372036854775807L - 1 && b == -1) ? a : a % b;
}
long safe_neg_long(long a) {
 return a == -9223372036854775807L - 1 ? a : -a;
}
long safe_shl_long(long a, ulong b) {
 return a < 0 || b >= 64UL || a > 9223372036854775807L >> b ? a : a << b;
}
long safe_shr_long(long a, ulong b) {
 return b >= 64UL ? a : a >> b;
}
uint safe_div_uint(uint a, uint b) {
 return b == 0 ? a : a / b;
}
uint safe_mod_uint(uint a, uint b) {
 return b == 0 ? a : a % b;
}
uint safe_shl_uint(uint a, ulong b) {
 return b >= 32 ? a : (uint)((ulong)a << b);
}
uint safe_shr_uint(uint a, ulong b) {
 return b >= 32 ? a : a >> b;
}
ulong safe_div_ulong(ulong a, ulong b) {
 return b == 0 ? a : a / b;
}
ulong safe_mod_ulong(ulong a, ulong b) {
 return b == 0 ? a : a % b;
}
ulong safe_shl_ulong(ulong a, ulong b) {
 return b >= 64 ? a : a << b;
}
ulong safe_shr_ulong(ulong a, ulong b) {
 return b >= 64 ? a : a >> b;
}
uint fn11(uchar p12, uchar p13, long p14) {
    ulong acc = 1;
    struct S5 s15 = {0};
    s15.f0 = safe_div_long(((short)(8)) ^ p14, 12 ^ p13);
    acc = mix_(acc, (ulong)(p12 || safe_shl_ulong(0UL, p13) || safe_div_ulong(((ulong)(1ul)) ^ p13, safe_mod_int(p13, p13))));
    int i16 = -1;
    while (++i16 < (int)safe_mod_int(((short)(8)), 3)) {
        struct Nn10 ni17 = {.sub = {(short)safe_add_int((short)1, (uchar)s15.f0)}};
        acc = mix_(acc, (ulong)ni17.arr[0]);
        int i18 = -1;
        while (++i18 < (int)(safe_add_int(!12, p13 > (short)-1) & 3)) {
            enum En7 ev19 = (safe_mul_long(p14, 12) ^ max(((ulong)(1ul)), ((ulong)(1ul)))) & 7;
            ev19 = (ushort)0 & 7;
            acc = mix_(acc, (ulong)(ev19 * 3 + En7_0));
            acc = mix_(acc, (ulong)(ev19 == En7_0));
            enum En7 ev20 = ((i16 & p13) == ~p13) & 7;
            ev20 = i16 & 7;
            acc = mix_(acc, (ulong)(ev20 * 3 + En7_0));
            acc = mix_(acc, (ulong)(ev20 == En7_0));
        }
        int i21 = -1;
        while (++i21 < (((short)(8)) & 3)) {
            enum En7 ev22 = max(p12 | ((short)(8)), (char)64 ^ (ushort)65535) & 7;
            ev22 = ((p12 ? 12 : 9223372036854775807L) ? 12 : (short)2) & 7;
            acc = mix_(acc, (ulong)(ev22 * 3 + En7_0));
            acc = mix_(acc, (ulong)(ev22 == En7_0));
            p13 &= ((uchar)((char)0 <= p12) | (safe_add_int(p12, (uchar)0) ? safe_mod_int(i21, p12) : (char)3)) <= safe_sub_int((int)abs((int)(p12 & 0xffff) - 32768), p13);
            double f23 = (double)((long)((double)((int)(p13 & 31) - 16) * (double)((int)(safe_shl_int((uchar)2 != p14, (uint)p13) & 31) - 16)) % 4096);
            {
                if ((void)(p14 ? p14 : 12), safe_neg_int(i16)) {
 goto skip24;
                }
 ushort gx25 = (12 || 2147483647) == (int)"A\101b\x7e!?x9"[p14 & 7];
                char a26[((int)(8))] = {0};
                for (int i27 = 0; i27 < ((int)(8)); i27++) {
                    a26[i27 & 7] = safe_div_int(p13, ~p12);
                }
                ulong v28 = (short)32767;
                acc = mix_(acc, (ulong)gx25);
            skip24:
                ;
                acc = mix_(acc, 3UL);
            }
            uint v29 = safe_mul_int(p12, 1907020426);
        }
        union Un8 un30 = {(int)p13};
        acc = mix_(acc, (ulong)un30.i);
        acc = mix_(acc, (ulong)(union Un8){.s = (short)(s15.f0 & (s15.f0 & 12))}.s);
        {
            if ((int)(true ^ '\n')) {
 goto skip31;
            }
 ushort gx32 = 18446744073709551615UL <= (12 ? ((int)(1)) : (ushort)65534);
            p14 = (uint)safe_sub_long(p13 != s15.f0, p14);
            union Un8 un33 = {(int)(ulong)__alignof__(int)};
            acc = mix_(acc, (ulong)un33.i);
            un33.s = (short)clamp(gx32 + 2UL, (ulong)17, (ulong)587);
            acc = mix_(acc, (ulong)un33.s);
            acc = mix_(acc, (ulong)(struct Nn10){.x = (ushort)(2147483646 || ((ulong)(1ul)) & (ushort)73)}.x);
            acc = mix_(acc, (ulong)gx32);
        skip31:
            ;
            acc = mix_(acc, 3UL);
        }
    }
    return (uint)(7u ^ (uint)acc);
}
__constant ulong jtab_ulong_w[16] = {197UL, 136UL, 13UL, 427UL, 47UL, 81UL, 367UL, 366UL, 253UL, 1UL, 251UL, 35UL, 281UL, 306UL, 383UL, 267UL};

ulong ballot(ulong parent, bool p) { uint4 b = sub_group_ballot(p); return parent & ((ulong)b.x | ((ulong)b.y << 32)); }
ulong sg_mask(void) { uint n = get_sub_group_size(); return n >= 64u ? ~(ulong)0 : ((ulong)1 << n) - 1; }
uint rank_(ulong mask, uint lane) { return popcount(mask & (((ulong)1 << lane) - 1)); }

ulong gf44(ulong cs, long q45, ulong tangle) {
    uint sgl = get_sub_group_local_id();
    uint lid = rank_(tangle, sgl), range = popcount(tangle);
    ulong acc = 1;
    for (size_t i = lid; i < 2; i += range)
        acc = acc && jtab_ulong_w[14 + i] != 0;
    ulong r64 = sub_group_non_uniform_reduce_logical_and((int)(acc != 0)) != 0;
    cs = mix_(cs, r64);
    return cs;
}

__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void k17_s70040(__global ulong *out, __global const int *in) {
    const ulong tangle = sg_mask();
    uint lid = get_local_id(0), gid = get_global_id(0), grp = get_group_id(0);
    size_t gsz = get_global_size(0);
    int inx = in[gid];
    long iny = (long)in[(gid + 5u) % 8u] * 65536 + inx;
    ulong cs = 0x11198UL;
    uint sgl = get_sub_group_local_id();
    const int switch_1 = (int)(safe_div_long(sgl - ((short)(8)), iny | true) & 7);
    const bool in_1 = switch_1 == 1;
    const ulong case_1_6 = ballot(tangle, in_1);
    if (in_1)
        cs = gf44(cs, (long)(char)-2, case_1_6);
    const bool cond_8 = (int)abs((int)((sgl >= grp) & 0xffff) - 32768);
    const ulong then_8 = ballot(tangle, cond_8);
    if (cond_8) { /* cond_8 is 32768 or 32767: always true */
    } else {      /* NEVER EXECUTED */
        const ulong else_8 = tangle & ~then_8;
        const bool cond_9 = fn11((uchar)safe_add_int(((int)(1)), inx), (uchar)!12, (long)safe_shl_long(-1L, ((short)(8)))) != max((int)(bool)12, (int)(char)2);
        const ulong then_9 = ballot(else_8, cond_9);
        if (cond_9) {
            uint l9 = rank_(then_9, sgl), range9 = popcount(then_9);
            ulong acc = 0;
            for (size_t i = l9; i < 2; i += range9) /* LOOP-IN-DEAD-CODE */
                acc = acc < jtab_ulong_w[11 + i] ? jtab_ulong_w[11 + i] : acc;
            ulong r = sub_group_non_uniform_reduce_max(acc);
            cs = mix_(cs, r);
        }
        if (sgl) {
            if (lid == 2u)
                cs = mix_(cs, (ulong)atom_xchg((__global long *)&out[(gid - lid) * 10u + 9u], (long)~(((int)(1)) & ((ulong)(1ul)))));
        }
    }
    out[gid * 10u] = cs;
}
