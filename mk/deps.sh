#!/bin/sh
# mk/deps.sh - make sure the Debian packages futexsim builds with are present.
#
# Called by the Makefile before anything is compiled.  As root it installs
# what is missing; otherwise it prints the exact apt-get line and fails.
# Extra package names may be given as arguments (the Makefile adds the
# linux-source package of the series it builds, make check adds the
# clang-14 its cross-compiler determinism test needs, GNU parallel,
# which runs the sharded search of tests/test_scripts.c, glibc-source,
# whose nptl tests mk/check-glibc.sh builds, and chromium, the headless
# browser of mk/check-browser.sh).
# Exit status: 0 all present (or installed), 1 something is missing.
set -eu

PKGS="check uthash-dev libunwind-dev pkg-config patch $*"

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
	echo "futexsim: installing missing Debian packages:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq --no-install-recommends $missing >&2
	exit 0
fi

echo "futexsim: missing Debian packages:$missing" >&2
echo "futexsim: run as root:  apt-get install -y$missing" >&2
exit 1
