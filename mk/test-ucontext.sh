#!/bin/sh
# mk/test-ucontext.sh - build the test binary with the ucontext coroutine
# backend (CORO=ucontext) and run its coro suite.
#
# Called by `make check` with the build directory as $1.  On x86-64 the
# default build switches with the asm backend; tests/test_coro.c calls the
# ucontext entry points explicitly, but only this build makes
# sim_coro_init()/sim_coro_switch() themselves the fallback.  The build
# goes to $1/det-ucontext, where mk/determinism.sh (run before it by
# make check) built the same configuration's futexsim, so only the test
# binary is new, and reuses the kernel subset already extracted in
# $1/linux.  CC, O and other variables given to the calling make reach
# this one through MAKEFLAGS.
#
# Exit status: 0 when every test of the suite passed; make's or the test
# binary's status otherwise.
set -eu

B=${1:-build}
UB=$B/det-ucontext

# LTO= as mk/determinism.sh builds the same directory: link-time
# optimization is the main build's, and each LTO build lengthens make check
make --no-print-directory B="$UB" KDIR="$B/linux" CORO=ucontext LTO= "$UB/check"
echo "  CHECK   coro suite, CORO=ucontext"
CK_RUN_SUITE=coro exec "$UB/check"
