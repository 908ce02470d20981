#!/bin/sh
# deps.sh - check what building and testing dyngraph needs (`make deps` runs it).
#
# Needed: the OpenCL headers (opencl-headers), the ICD loader to link with, libOpenCL.so
# (ocl-icd-opencl-dev), PoCL as the OpenCL device every test machine has (pocl-opencl-icd),
# gcc/g++ and clang/clang++ (the compile checks use all four; $CC builds the tests) and the C
# library headers.
# When something is missing: as root, install it with apt-get (Debian, Ubuntu); otherwise
# print the command to run and fail.
set -u

missing=""
need() {                                # need PACKAGE WHAT
    case " $missing " in *" $1 "*) ;; *) missing="$missing $1" ;; esac
    echo "deps: missing $2 (package $1)"
}

check() {
    missing=""
    [ -f /usr/include/CL/cl.h ] || need opencl-headers "/usr/include/CL/cl.h"
    lib=no
    for f in /usr/lib/*-linux-gnu/libOpenCL.so /usr/lib64/libOpenCL.so /usr/lib/libOpenCL.so \
             /usr/local/lib/libOpenCL.so; do
        [ -e "$f" ] && lib=yes
    done
    [ "$lib" = yes ] || need ocl-icd-opencl-dev "the OpenCL ICD loader libOpenCL.so"
    [ -f /etc/OpenCL/vendors/pocl.icd ] || need pocl-opencl-icd "PoCL (/etc/OpenCL/vendors/pocl.icd)"
    [ -f /usr/include/stdio.h ] || need libc6-dev "the C library headers"
    cc1=${CC:-cc}; cc1=${cc1%% *}         # the first word of "ccache gcc"
    command -v "$cc1" >/dev/null 2>&1 || need gcc "the C compiler $cc1"
    command -v gcc >/dev/null 2>&1 || need gcc "gcc"
    command -v g++ >/dev/null 2>&1 || need g++ "g++"
    command -v clang >/dev/null 2>&1 || need clang "clang"
    command -v clang++ >/dev/null 2>&1 || need clang "clang++"
}

check
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
    echo "deps: install the missing packages, then run make again:"
    echo "    sudo apt-get update && sudo apt-get install -y --no-install-recommends$missing"
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "deps: no apt-get here: install the equivalents of:$missing"
    exit 1
fi

echo "deps: running as root: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# $missing is a space-separated list of package names: split on purpose.
# shellcheck disable=SC2086
if ! { apt-get update && apt-get install -y --no-install-recommends $missing; }; then
    echo "deps: apt-get failed"
    exit 1
fi
check
if [ -n "$missing" ]; then
    echo "deps: still missing after apt-get:$missing"
    exit 1
fi
echo "deps: all present"
