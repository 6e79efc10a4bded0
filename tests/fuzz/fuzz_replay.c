/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/fuzz/fuzz_replay.c - libFuzzer target: a replay file, its header
 * read the way `futexsim replay FILE` reads it (sim_replay_load()) and
 * every decision line to the end of the file (past an "end" line too)
 * read by the reader a replaying run uses.
 *
 * Stage: tests (fuzzing); `make fuzz` (tests/fuzz/README.md).  This file
 * includes sim/replay/replay.c, so that it can call the decision reader
 * (rep_read(), static there) without a run: the target links without
 * replay.o (the Makefile's FUZZ_OWN_replay).  Calls
 * sim/replay/replay_file.c and sim/scenario/ through sim_replay_load().
 *
 * Property: bad input is one line (tests/fuzz/fuzz.h); each decision
 * read, written again by the recorder (rec_put()), reads back as the same
 * decision.  FUTEXSIM_FUZZ_SELFTEST=1 changes the decision written.
 */
#include "sim/replay/replay.c"

#include "sim/scenario/scenario.h"
#include "tests/fuzz/fuzz.h"

struct job {
	const char *path;
	struct sim_scenario s;
	struct sim_replay_src src;
	unsigned long decisions;
};

/* One decision: described (as a divergence would), written, re-read. */
static void check_decision(const struct dec *d)
{
	char w[128], line[DEC_LINE_MAX + 1];
	struct dec again = { .kind = DEC_EOF }, out = *d;

	describe(d, 1, w, sizeof(w));
	if (fuzz_selftest())
		out.a ^= 1;
	rec.len = 0;
	rec_put(&out);
	memcpy(line, rec.buf, rec.len);
	line[rec.len] = '\0';
	rec.len = 0;
	if (parse_dec(line, &again) || again.kind != d->kind ||
	    again.a != d->a || again.b != d->b ||
	    (d->kind == SIM_DEC_SWITCH && again.c != d->c))
		fuzz_finding("echo",
			     "a decision written by the recorder reads back as another",
			     line);
}

static void read_replay(void *ctx)
{
	struct job *j = ctx;
	struct dec d;

	sim_scenario_defaults(&j->s);
	sim_replay_load(j->path, &j->s, &j->src);
	sim_replay_start(&j->src);
	for (;;) {
		if (rep_read(&d) || d.kind == DEC_EOF)
			break;
		check_decision(&d);
		rep.line++;
		j->decisions++;
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct job j;

	fuzz_input(data, size);

	j.path = fuzz_file("in.replay", data, size);
	j.decisions = 0;
	fuzz_call(read_replay, &j);
	/* fuzz_call() closed the file; nothing is replayed any more */
	rep.f = NULL;
	rep.checking = 0;
	finished = 1;
	sim_replay_active = 0;
	return 0;
}
