#!/bin/sh
# check_kernels.sh - compile the kernels offline with clang's OpenCL C 1.2 front end (no device
# needed): every program the library builds, with warnings as errors. Quick feedback while
# editing kernels/; the tests still build them on PoCL for real.
#   sh tools/check_kernels.sh
set -eu
cd "$(dirname "$0")/.."
CLANG=${CLANG:-clang}
tmp=${TMPDIR:-/tmp}/dg_check_kernels.$$
trap 'rm -f "$tmp.cl"' EXIT
status=0
# 15_user.cl (user programs only) gets the constants that dg_program_create writes from the
# public header, and one kernel of each template instantiated.
user='-DDG_ARGS_BUFFERS=8 -DDG_ARGS_SCALARS=8 -DDG_REDUCE_MIN=1 -DDG_REDUCE_MAX=2'
# The passes with 64-bit pool positions (DG_POS64) run on a target whose size_t is 32 bits
# (spir), where -Wshorten-64-to-32 finds every position (dg_pos) put into a uint.
for csr in "" "-DDG_CSR" "-DDG_POS64" "-DDG_POS64 -DDG_CPU" "-DDG_POS64 -DDG_CSR"; do
    case "$csr" in *POS64*) narrow='-target spir -Wshorten-64-to-32' ;; *) narrow='' ;; esac
    cat kernels/00_shared.h kernels/*.cl > "$tmp.cl"
    cat >> "$tmp.cl" <<'EOF'
int chk_visit(int s, int d, float w, const dg_args *a) { return s + d + (int)w + a->ints[0]; }
int chk_keep(int v, __global int *data) { return data[v]; }
void chk_apply(int v, const dg_args *a) { dg_atomic_add_float(dg_floats(a, 0) + v, 1.0f); }
float chk_value(int v, const dg_args *a) { return (float)dg_out_degree(a, v); }
int chk_ivalue(int v, const dg_args *a) { return dg_in_degree(a, v) + dg_out_neighbor(a, v, 0); }
DG_USER_ADVANCE(chk_k0, chk_visit, 1)
DG_USER_FILTER(chk_k1, chk_keep, 0)
DG_USER_COMPUTE(chk_k2, chk_apply, 1)
DG_USER_REDUCE(chk_k3, chk_value, 1)
DG_USER_REDUCE_INT(chk_k4, chk_ivalue, 1)
EOF
    if ! "$CLANG" -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only -Werror \
         -DDG_LOG_P=10 -DDG_DS=4 -DDG_WG=256 $user $csr $narrow "$tmp.cl"; then status=1; fi
done
[ "$status" = 0 ] && echo "kernels: clean"
exit "$status"
