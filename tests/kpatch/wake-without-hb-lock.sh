#!/bin/sh
# tests/kpatch/wake-without-hb-lock.sh KDIR - print a patch (-p1) that
# makes FUTEX_WAKE walk its hash bucket without the bucket's lock: the
# spin_lock(&hb->lock) and spin_unlock(&hb->lock) of futex_wake() in
# kernel/futex/waitwake.c removed.  A waker then reads the bucket's
# plist while a waiter queues itself on it under the lock: a data race
# of plain accesses that KCSAN reports on real hardware when the two
# happen to meet, and the race oracle reports under explore.
#
# Stage: tests (make check-instr builds an instrumented kernel with it,
# INSTR=1 KPATCH=, and explores the ww mutex with oracle race).  The
# patch is made from KDIR's own file, so no kernel text is kept in the
# project.  Exit status: 0, or 1 when the lock and unlock are not found.
set -eu
. "$(dirname "$0")/kpatch.sh"
# inside futex_wake() (from its definition to the next line "}"), the
# first lock and the first unlock of hb->lock
kpatch_awk "$1" kernel/futex/waitwake.c "futex_wake()'s lock and unlock" '
	/^int futex_wake\(/ { in_fn = 1 }
	in_fn && /^}/ { in_fn = 0 }
	in_fn && !locked && /^\tspin_lock\(&hb->lock\);$/ { locked = 1; n++; next }
	in_fn && !unlocked && /^\tspin_unlock\(&hb->lock\);$/ { unlocked = 1; n++; next }
	{ print }
	END { if (n != 2) exit 1 }
'
