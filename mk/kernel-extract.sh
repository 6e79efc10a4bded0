#!/bin/sh
# mk/kernel-extract.sh SERIES SOURCE DESTDIR [PATCH] - put the part of the
# kernel that futexsim compiles into DESTDIR: the headers, kernel/locking,
# kernel/futex, lib/plist.c, lib/rbtree.c, the top Makefile for the
# version, the futex selftests and the kselftest.h they include
# (mk/selftests.sh runs them).
#
#   SERIES   the series the shim is built for (6.1 or 6.12); SOURCE must
#            be of that series
#   SOURCE   Debian's tarball (/usr/src/linux-source-SERIES.tar.xz) or a
#            kernel tree (a git checkout of the user's own kernel)
#   PATCH    a patch (`git diff`, `diff -u`, -p1) applied to the copy in
#            DESTDIR, never to SOURCE
#
# The files are copied unmodified, then the patch if one is given.
# DESTDIR/.stamp records what went in (the tarball's size and mtime, or
# the tree's path; the file list; the patch's SHA-256): a tarball is
# extracted again only when that changes.  A tree is copied at every
# call and DESTDIR is replaced only when a file differs, so an unchanged
# tree rebuilds nothing.
#
# A source of another series, a missing file or a patch that does not
# apply is one line on stderr and exit status 2.
set -eu

series=$1
src=$2
dest=$3
patch=${4:-}
files="Makefile include kernel/locking kernel/futex lib/plist.c lib/rbtree.c
tools/testing/selftests/futex tools/testing/selftests/kselftest.h"

fail() {
	echo "futexsim: $*" >&2
	exit 2
}

[ -e "$src" ] || fail "$src: no such kernel source (KTAR= a tarball or KSRC= a kernel tree)"
if [ -n "$patch" ]; then
	[ -f "$patch" ] || fail "KPATCH=$patch: no such file"
	psum=$(sha256sum < "$patch" | cut -c1-64)
else
	psum=none
fi

if [ -d "$src" ]; then
	what="tree $(cd "$src" && pwd)"
else
	what="tarball $(stat -c '%s %Y' "$src")"
fi
want="$what patch $psum $(echo $files)"
if [ ! -d "$src" ] && [ -f "$dest/.stamp" ] &&
   [ "$(cat "$dest/.stamp")" = "$want" ]; then
	touch "$dest/.stamp"	# up to date: newer than this script for make
	exit 0
fi

rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
if [ -d "$src" ]; then
	for f in $files; do
		[ -e "$src/$f" ] || fail "KSRC=$src: $f: not found (a kernel tree has it)"
		mkdir -p "$dest.tmp/$(dirname "$f")"
		cp -pR "$src/$f" "$dest.tmp/$f"
	done
else
	echo "  EXTRACT $src ($(echo $files))"
	top=$(basename "$src" .tar.xz)
	# shellcheck disable=SC2046 # one tar member per word of $files
	tar -xJf "$src" -C "$dest.tmp" --strip-components=1 \
		$(for f in $files; do printf '%s/%s ' "$top" "$f"; done) ||
		fail "$src: not a linux-source tarball with $top/ inside"
fi

# The series, from the copy's Makefile: the shim is built for one.
got=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p' "$dest.tmp/Makefile" | paste -sd.)
if [ "$got" != "$series" ]; then
	rm -rf "$dest.tmp"
	fail "$src: kernel $got, but this build is for $series (KERNEL=6.1 or KERNEL=6.12)"
fi

if [ -n "$patch" ]; then
	echo "  PATCH   $patch"
	if ! out=$(patch -d "$dest.tmp" -p1 -N -t -r - --no-backup-if-mismatch \
		   < "$patch" 2>&1); then
		rm -rf "$dest.tmp"
		# the first file that failed and why, in one line
		why=$(echo "$out" | awk '
			/^patching file / { f = substr($0, 15) }
			/^Hunk #[0-9]+ FAILED/ { print f ": " $0; exit }
			/^can.t find file to patch/ { miss = 1 }
			miss && /^\|\+\+\+ / { sub(/^\|\+\+\+ [^\/]*\//, ""); sub(/\t.*/, "");
				print $0 ": not among the files futexsim compiles or includes"; exit }
			/garbage/ { print "not a patch (-p1, as git diff writes it)"; exit }
			END { }')
		[ -n "$why" ] || why=$(echo "$out" | grep -v '^$' | tail -1)
		fail "KPATCH=$patch: does not apply to $series: $why"
	fi
fi
echo "$want" > "$dest.tmp/.stamp"

# A tree copied again and found the same keeps the old copy and its times.
if [ -d "$src" ] && [ -f "$dest/.stamp" ] &&
   diff -r -q "$dest" "$dest.tmp" >/dev/null 2>&1; then
	rm -rf "$dest.tmp"
	exit 0
fi
[ -d "$src" ] && echo "  COPY    $src ($(echo $files))"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
