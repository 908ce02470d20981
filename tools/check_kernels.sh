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
for csr in "" "-DDG_CSR"; do
    cat kernels/00_shared.h kernels/*.cl > "$tmp.cl"
    if ! "$CLANG" -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only -Werror \
         -DDG_LOG_P=10 -DDG_DS=4 -DDG_WG=256 $csr "$tmp.cl"; then status=1; fi
done
[ "$status" = 0 ] && echo "kernels: clean"
exit "$status"
