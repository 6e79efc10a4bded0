#!/bin/sh
# mk/kernel-extract.sh TARBALL DESTDIR - extract the part of linux-source-6.1
# that futexsim compiles (headers, kernel/locking, kernel/futex, lib/plist.c,
# the top Makefile for the version, and the futex selftests).
#
# The files are extracted unmodified.  DESTDIR/.stamp records the tarball's
# size and mtime: the extraction is redone only when the tarball changes.
set -eu

tarball=$1
dest=$2
top=linux-source-6.1

want="$(stat -c '%s %Y' "$tarball")"
if [ -f "$dest/.stamp" ] && [ "$(cat "$dest/.stamp")" = "$want" ]; then
	exit 0
fi

rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
echo "  EXTRACT $tarball (include/ kernel/locking kernel/futex lib/plist.c)"
tar -xJf "$tarball" -C "$dest.tmp" --strip-components=1 \
	"$top/Makefile" "$top/include" "$top/kernel/locking" \
	"$top/kernel/futex" "$top/lib/plist.c" \
	"$top/tools/testing/selftests/futex"
echo "$want" > "$dest.tmp/.stamp"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
