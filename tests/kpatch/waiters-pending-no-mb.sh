#!/bin/sh
# tests/kpatch/waiters-pending-no-mb.sh KDIR - print a patch (-p1) that
# removes barrier (B) of the futex ordering (the opening comment of
# kernel/futex/waitwake.c): the smp_mb() that futex_hb_waiters_pending()
# makes before it reads the bucket's waiter count.  A waker's store to
# the futex word may then still be in its store buffer when FUTEX_WAKE
# reads the count: it finds no waiter while the waiter, which counted
# itself (barrier (A)) and read the word, finds the old value and
# sleeps.  Sequentially consistent memory never shows it; memory=arm64,
# where a system call is no barrier, does.
#
# Stage: tests (make check builds a kernel with it, KPATCH=, and
# explores workloads/examples/flag_wake.c under memory=arm64;
# docs/programs.md shows the transcript).  The patch is made from KDIR's
# own kernel/futex/futex.h, 6.1 or 6.12, so no kernel text is kept in the
# project.  Exit status: 0, or 1 when the barrier is not found.
set -eu
. "$(dirname "$0")/kpatch.sh"
# the first "smp_mb();" line after the comment that names barrier (B)
kpatch_awk "$1" kernel/futex/futex.h "barrier (B)" '
	/Full barrier \(B\)/ { armed = 1 }
	armed && /^\tsmp_mb\(\);$/ { armed = 0; n++; next }
	{ print }
	END { if (n != 1) exit 1 }
'
