# SPDX-License-Identifier: GPL-2.0
# tests/kpatch/kpatch.sh - what the patch scripts of tests/kpatch/ share,
# sourced by each: kpatch_awk KDIR FILE WHAT PROGRAM prints the patch
# (-p1) that awk PROGRAM makes of KDIR's FILE, a copy in a temporary
# folder (the kernel tree is never written); if PROGRAM exits non-zero
# (what it edits is not there) it says "KDIR/FILE: WHAT not found" on
# stderr and exits 1.
#
# Stage: tests.  The patch is made from the tree's own file, so no
# kernel text is kept in the project.
kpatch_awk() {
	kdir=$1 f=$2 what=$3 prog=$4
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/a/$(dirname "$f")" "$tmp/b/$(dirname "$f")"
	cp "$kdir/$f" "$tmp/a/$f"
	awk "$prog" "$tmp/a/$f" > "$tmp/b/$f" ||
		{ echo "$0: $kdir/$f: $what not found" >&2; exit 1; }
	(cd "$tmp" && diff -u --label "a/$f" --label "b/$f" "a/$f" "b/$f") ||
		[ $? = 1 ]
}
