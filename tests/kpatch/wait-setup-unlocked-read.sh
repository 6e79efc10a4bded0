#!/bin/sh
# tests/kpatch/wait-setup-unlocked-read.sh KDIR - print a patch (-p1) that
# breaks the futex protocol the way the opening comment of
# kernel/futex/waitwake.c warns against: futex_wait_setup() reads the
# futex word *before* it takes the hash bucket lock (and counts itself a
# waiter), instead of under it.  A waker that changes the word and calls
# FUTEX_WAKE between the read and the lock sees no waiter; the waiter
# then queues and sleeps on a value that is gone: a lost wakeup.
#
# Stage: tests (make check builds a kernel with it, KPATCH=, and
# explores it; docs/kernels.md shows the transcript).  The patch is made
# from KDIR's own copy of waitwake.c, 6.1 or 6.12 (the two lines are the
# same in both), so no kernel text is kept in the project.
# Exit status: 0, or 1 when the two lines are not found.
set -eu
. "$(dirname "$0")/kpatch.sh"
# swap "*hb = futex_q_lock(q);" with the futex_get_value_locked() line
# after it (one blank line between them)
kpatch_awk "$1" kernel/futex/waitwake.c lines '
	held == "" && /^\t\*hb = futex_q_lock\(q\);$/ { held = $0; next }
	held != "" && state == 0 && /^$/ { state = 1; next }
	held != "" && state == 1 && /futex_get_value_locked\(&uval, uaddr\);$/ {
		print; print ""; print held; state = 2; n++; next }
	held != "" && state < 2 { print held; held = ""; state = 0 }
	{ print }
	END { if (n != 1) exit 1 }
'
