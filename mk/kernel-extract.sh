#!/bin/sh
# mk/kernel-extract.sh TARBALL DESTDIR - extract the part of linux-source-6.1
# that futexsim compiles (headers, kernel/locking, kernel/futex, lib/plist.c,
# lib/rbtree.c, the top Makefile for the version, the futex selftests and
# the kselftest.h they include: mk/selftests.sh runs them).
#
# The files are extracted unmodified.  DESTDIR/.stamp records the tarball's
# size and mtime and the list below: the extraction is redone only when the
# tarball or the list changes.
set -eu

tarball=$1
dest=$2
top=linux-source-6.1
files="Makefile include kernel/locking kernel/futex lib/plist.c lib/rbtree.c
tools/testing/selftests/futex tools/testing/selftests/kselftest.h"

want="$(stat -c '%s %Y' "$tarball") $(echo $files)"
if [ -f "$dest/.stamp" ] && [ "$(cat "$dest/.stamp")" = "$want" ]; then
	touch "$dest/.stamp"	# up to date: newer than this script for make
	exit 0
fi

rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
echo "  EXTRACT $tarball ($(echo $files))"
# shellcheck disable=SC2046 # one tar member per word of $files
tar -xJf "$tarball" -C "$dest.tmp" --strip-components=1 \
	$(for f in $files; do printf '%s/%s ' "$top" "$f"; done)
echo "$want" > "$dest.tmp/.stamp"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
