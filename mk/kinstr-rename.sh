#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mk/kinstr-rename.sh OBJ - in an object of an instrumented kernel build
# (make INSTR=1), rename the calls the thread-sanitizer instrumentation
# inserted, __tsan_*, to __ksim_tsan_*: sim/arch/instrument.c, the
# kernel's runtime, serves them, and a user program's runtime
# (workloads/libsim/instrument.c) keeps the __tsan_* names.
#
# Stage: build (the Makefile's kernel compile rules).  Exit status: 0, or
# objcopy's.
set -eu
obj=$1
syms=$obj.syms
nm -u "$obj" | awk '$2 ~ /^__tsan_/ { print $2 " __ksim" substr($2, 2) }' > "$syms"
objcopy --redefine-syms="$syms" "$obj"
rm -f "$syms"
