#!/bin/sh
# mk/determinism.sh B - the cross-build determinism test (part of make check).
#
# The same scenarios (SCN, SCN2) and seed must give byte-identical report
# text, text traces and JSON (except the "host" object) from the default
# build in $B, an -O0 build, a build with the ucontext coroutine fallback
# and a clang build; a different seed must give a different schedule.  The variant
# builds reuse $B's extracted kernel tree; none of them is link-time
# optimized (O=0 and clang by their flags, ucontext by LTO=, which also
# shortens make check), so each compares the main build, LTO with gcc,
# against one without.
set -u
B=$1
SCN="run --machine=tiny4 --threads=8 --ops=20000 --lock=ww,ww-timed,pi,tp,adaptive --cs=pause:5 --adaptive=glibc236"
# the rwlocks, with the TP futex over the 4.8-era mutex and the readers first
SCN2="run --machine=tiny4 --workload=rwlock --readers=4 --writers=4 --ops=20000 --lock=rw-prefer-reader,rw-prefer-writer-nr,rw-tp --cs=pause:5 --tp-mutex=4.8 --roles=split"
pass=0
fail=0

variant() {	# name, make arguments...
	name=$1; shift
	if ! make -s B="$B/det-$name" KDIR="$B/linux" "$@" "$B/det-$name/futexsim" \
		>"$B/det-$name.log" 2>&1; then
		echo "determinism: FAIL: the $name build failed (see $B/det-$name.log)"
		fail=$((fail + 1))
		return 1
	fi
}

runit() {	# binary, output prefix, seed
	# every run writes r.json in a folder of its own, so that the echoed
	# scenario (which names the file) is the same for all
	bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	mkdir -p "$2"
	(cd "$2" && "$bin" $SCN --seed="$3" --json=r.json --trace=t.txt \
		>r.txt 2>&1) || {
		echo "determinism: FAIL: $1 exited with an error (see $2/r.txt)"
		return 1; }
	(cd "$2" && "$bin" $SCN2 --seed="$3" --json=r2.json --trace=u.txt \
		>r2.txt 2>&1) || {
		echo "determinism: FAIL: $1 exited with an error (see $2/r2.txt)"
		return 1; }
	# the reports, then the traces
	cat "$2/r.txt" "$2"/t.*.txt "$2/r2.txt" "$2"/u.*.txt >"$2.txt"
	sed 's/"host":{[^}]*}//g' "$2/r.json" "$2/r2.json" >"$2.cmp"
}

same() {	# what, prefix a, prefix b
	if cmp -s "$2.txt" "$3.txt" && cmp -s "$2.cmp" "$3.cmp"; then
		pass=$((pass + 1))
	else
		echo "determinism: FAIL: $1 ($2 vs $3)"
		fail=$((fail + 1))
	fi
}

mkdir -p "$B/det"
runit "$B/futexsim" "$B/det/a" 7 && runit "$B/futexsim" "$B/det/b" 7 &&
	same "two runs of one build" "$B/det/a" "$B/det/b"
runit "$B/futexsim" "$B/det/seed8" 8
if cmp -s "$B/det/a.cmp" "$B/det/seed8.cmp"; then
	echo "determinism: FAIL: seeds 7 and 8 gave the same results"
	fail=$((fail + 1))
else
	pass=$((pass + 1))
fi
variant O0 O=0 && runit "$B/det-O0/futexsim" "$B/det/O0" 7 &&
	same "-O2 and -O0 builds" "$B/det/a" "$B/det/O0"
variant ucontext CORO=ucontext LTO= && runit "$B/det-ucontext/futexsim" "$B/det/ucontext" 7 &&
	same "asm and ucontext coroutine builds" "$B/det/a" "$B/det/ucontext"
if command -v clang-14 >/dev/null 2>&1; then
	variant clang CC=clang-14 && runit "$B/det-clang/futexsim" "$B/det/clang" 7 &&
		same "gcc and clang builds" "$B/det/a" "$B/det/clang"
else
	echo "determinism: FAIL: clang-14 is not installed (apt-get install clang-14)"
	fail=$((fail + 1))
fi
echo "determinism: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
