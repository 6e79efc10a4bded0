#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mk/nm-audit.sh OBJ... - reject unexpected global data in kernel objects.
#
# Stage: build check (make kernel-audit, part of make check).  Runs nm on
# each kernel object (real kernel files and the shim's kernel TUs).
#
# Why: a kernel macro missing from the arch shim can silently turn into a
# global variable.  With ____cacheline_aligned_in_smp undefined,
#     struct futex_hash_bucket { ... } ____cacheline_aligned_in_smp;
# still compiles, but then *defines* a variable of that name (in every TU
# including the header) and the struct loses its alignment
# (docs/internals.md, "The nm audit").  Kernel code defines almost no
# global data of its own, so any global data symbol that is not on the
# list below is reported.
#
# Global data = nm types B C D G R S V u (bss, common, data, small
# data/bss, read-only, weak object, unique).  Local (lower-case) symbols,
# code and undefined references are not looked at.
#
# Exit status: 0 all clean; 1 offending symbols, one line each on stdout
# ("OBJ: SYMBOL (nm type T): unexpected global data"); 2 usage or nm error.
set -eu

# Allowed global data symbols, each with its reason.
ALLOW="
futex_q_init
lockevents
max_lock_depth
"
# futex_q_init: kernel/futex/requeue.c, const initialiser of struct
#   futex_q, declared extern in kernel/futex/futex.h and used by core.c,
#   waitwake.c and pi.c.
# lockevents: futex/kspin.c, the per-CPU counters that
#   kernel/locking/lock_events.h declares extern for CONFIG_LOCK_EVENT_COUNTS
#   and qspinlock.c increments (section sim_percpu, copied per CPU).
# max_lock_depth: kernel/locking/rtmutex_api.c, the PI chain walk's depth
#   limit (1024); the kernel.max_lock_depth sysctl in Linux, hence global
#   and declared extern in linux/rtmutex.h.

if [ $# -eq 0 ]; then
	echo "usage: mk/nm-audit.sh OBJ..." >&2
	exit 2
fi

bad=0
for obj in "$@"; do
	if ! syms=$(nm -P "$obj"); then
		echo "nm-audit: cannot read $obj" >&2
		exit 2
	fi
	out=$(printf '%s\n' "$syms" | awk -v obj="$obj" -v allow="$ALLOW" '
		BEGIN { n = split(allow, a, /[ \n]+/); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
		$2 ~ /^[BCDGRSVu]$/ && !($1 in ok) {
			printf "%s: %s (nm type %s): unexpected global data\n", obj, $1, $2
		}')
	if [ -n "$out" ]; then
		printf '%s\n' "$out"
		bad=1
	fi
done
[ $bad -eq 0 ] && echo "  AUDIT   $# kernel objects: no unexpected global data"
exit $bad
