#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mk/selftests.sh B - the Linux kernel's own futex selftests
# (tools/testing/selftests/futex/functional/ of the linux-source-6.1
# tarball, extracted unmodified into B/linux by mk/kernel-extract.sh),
# built with `futexsim build` and run inside the simulator, each over
# several seeds, with the arguments the selftests' run.sh uses.
#
# Stage: tests (called by `make check`).  Each run's outcome:
#   PASS  exit status 0, TAP "ok" lines and no "not ok"
#   SKIP  the program reached a call the simulator does not model (the
#         failure report names it, exit 3): the "ok" lines before it
#         passed, the rest did not run
#   FAIL  anything else
# and each test must have the outcome the table below expects
# (docs/programs.md, "The kernel's futex selftests", explains the
# skips).  Last, one run is repeated and must give the same bytes.
#
# mk/selftests.sh B MEMORY (sc, tso or arm64): the same, each built with
# --instrument (every access of the test's own code a scheduling point,
# its stores through the memory model's store buffers) and run under
# memory=MEMORY: the real futex code is correct under each model, so the
# outcomes must be the same.
set -eu

b=$1
memory=${2:-}
fs=$b/futexsim
sd=$b/linux/tools/testing/selftests
out=$b/selftests${memory:+-$memory}
seeds="1 2 3"
instr=
mem=
if [ -n "$memory" ]; then
	instr=--instrument
	mem=--memory=$memory
fi
mkdir -p "$out"
# the runs start here: a run that stops (SKIP) saves its failure replay
# file in the current directory, which must not be the source tree
mkdir -p "$out/run"
fs=$(cd "$(dirname "$fs")" && pwd)/futexsim
out=$(cd "$out" && pwd)
sd=$(cd "$sd" && pwd)
cd "$out/run"

# test   expected (PASS, or SKIP:N = N "ok" lines, then the unsupported call)
expect="futex_wait_timeout PASS
futex_wait_wouldblock PASS
futex_requeue PASS
futex_requeue_pi PASS
futex_requeue_pi_mismatched_ops PASS
futex_wait_uninitialized_heap PASS
futex_wait_private_mapped_file PASS
futex_wait PASS
futex_waitv PASS
futex_requeue_pi_signal_restart PASS"

# futex_requeue_pi's argument sets, from its run.sh
pi_args="|-b|-b -l|-b -o|-l|-o|-b -l -t 5000|-l -t 5000|-b -l -t 500000|-l -t 500000|-b -t 5000|-t 5000|-b -t 500000|-t 500000|-b -o -t 5000|-b -o -t 500000|-b -l -t 2000000000|-l -t 2000000000"

fail=0
outcome() {	# outcome STDOUT STDERR STATUS
	oks=$(grep -c '^ok ' "$1" || true)
	if grep -q '^not ok' "$1"; then
		echo "FAIL"
	elif [ "$3" = 0 ] && [ "$oks" -gt 0 ]; then
		echo "PASS"
	elif [ "$3" = 3 ] && grep -q 'unsupported call in the program' "$2"; then
		echo "SKIP:$oks"
	else
		echo "FAIL"
	fi
}

echo "$expect" | while read -r t want; do
	if ! "$fs" build $instr "$sd/futex/functional/$t.c" -o "$out/$t" \
		-I"$sd/futex/include" -I"$sd" 2> "$out/$t.build"; then
		echo "selftest $t: FAIL (does not build)"; cat "$out/$t.build"
		exit 1
	fi
	args="|"
	[ "$t" = futex_requeue_pi ] && args=$pi_args
	IFS='|'
	for a in $args; do
		unset IFS
		for s in $seeds; do
			st=0
			"$fs" run --program="$out/$t" --args="$a" --seed="$s" $mem \
				> "$out/$t.out" 2> "$out/$t.err" || st=$?
			got=$(outcome "$out/$t.out" "$out/$t.err" "$st")
			if [ "$got" != "$want" ]; then
				echo "selftest $t $a (seed $s): $got, expected $want"
				cat "$out/$t.out" "$out/$t.err"
				exit 1
			fi
		done
		IFS='|'
	done
	unset IFS
	why=""
	case $want in SKIP*)
		why=" then SKIPPED: $(sed -n 's/.*unsupported call in the program: //p' "$out/$t.err" | head -1)"
	esac
	echo "selftest $t: $want over seeds $seeds${memory:+ (--instrument, memory=$memory)}$why"
done || exit 1

# the same program and seed give the same bytes, output and report
for i in 1 2; do
	"$fs" run --program="$out/futex_requeue_pi" --args="-b -l -t 500000" \
		--seed=7 $mem --json="$out/det.json" > "$out/det$i.out"
	sed 's/"host":{[^}]*}//' "$out/det.json" > "$out/det$i.cmp"
done
cmp -s "$out/det1.out" "$out/det2.out" && cmp -s "$out/det1.cmp" "$out/det2.cmp" || {
	echo "selftest futex_requeue_pi: two runs of seed 7 differ"; exit 1; }
echo "selftests: the same program and seed give byte-identical output and reports"
