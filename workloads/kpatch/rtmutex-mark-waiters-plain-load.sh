#!/bin/sh
# workloads/kpatch/rtmutex-mark-waiters-plain-load.sh KDIR - print a patch
# (-p1) for a 6.12 tree that puts back 6.1's form of
# mark_rt_mutex_waiters() (kernel/locking/rtmutex.c, the one built
# without CONFIG_DEBUG_RT_MUTEXES): the owner word read by a plain load
# inside a cmpxchg_relaxed() loop, instead of 6.12's READ_ONCE() before a
# try_cmpxchg_relaxed() loop.  The two are the same to the kernel; to the
# simulator the plain load is not an access it charges (docs/model.md),
# so the A/B of docs/studies/kernel-6.12.md measures what that one
# READ_ONCE() costs in the model:
#
#   sh workloads/kpatch/rtmutex-mark-waiters-plain-load.sh build-6.12/linux > mw.patch
#   make KERNEL=6.12 KPATCH=mw.patch
#   build-6.12/futexsim compare --lock=pi ... --against=build-6.12-patch-mw/futexsim
#
# The patch is made from KDIR's own file, so no kernel text is kept in
# the project.  Exit status: 0, or 1 when the lines are not found.
set -eu
f=kernel/locking/rtmutex.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a/kernel/locking" "$tmp/b/kernel/locking"
cp "$1/$f" "$tmp/a/$f"
# the first function of that name is the non-debug one; its five lines
# from the declarations to the end of the loop are replaced
awk '
	/^static __always_inline void mark_rt_mutex_waiters\(struct rt_mutex_base \*lock\)$/ && !done { infn = 1 }
	infn && /^\tunsigned long \*p = \(unsigned long \*\) &lock->owner;$/ { st = 1; next }
	infn && st == 1 && /^\tunsigned long owner, new;$/ {
		print "\tunsigned long owner, *p = (unsigned long *) &lock->owner;"; st = 2; next }
	infn && st == 2 && /^\towner = READ_ONCE\(\*p\);$/ { st = 3; next }
	infn && st == 3 && /^\tdo \{$/ { print; print "\t\towner = *p;"; st = 4; next }
	infn && st == 4 && /^\t\tnew = owner \| RT_MUTEX_HAS_WAITERS;$/ { st = 5; next }
	infn && st == 5 && /^\t} while \(!try_cmpxchg_relaxed\(p, &owner, new\)\);$/ {
		print "\t} while (cmpxchg_relaxed(p, owner,"
		print "\t\t\t\t owner | RT_MUTEX_HAS_WAITERS) != owner);"
		st = 6; infn = 0; done = 1; next }
	{ print }
	END { if (!done) exit 1 }
' "$tmp/a/$f" > "$tmp/b/$f" || { echo "$0: $1/$f: mark_rt_mutex_waiters() of 6.12 not found" >&2; exit 1; }
(cd "$tmp" && diff -u --label "a/$f" --label "b/$f" "a/$f" "b/$f") || [ $? = 1 ]
