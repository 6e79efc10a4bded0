/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_play.c - suite "play": `futexsim play` (sim/explore/play.c)
 * driven through a pipe, and on a real terminal through tmux
 * (tests/play-tmux.sh).
 *
 * Stage: tests.  Runs the futexsim binary of $FUTEXSIM with a scripted
 * stdin.  The schedule of the lesson: the lost wakeup of
 * workloads/bugs/lost-wakeup.scn (ww-busted, 2 threads) cut to 2
 * operations, seed 3, as `futexsim shrink` leaves it: 43 branching
 * points, the second CPU chosen at the 9th, 15th and 33rd.  The correct
 * lock (lost-wakeup-ok.scn) under the same answers is the negative
 * control.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/run_child.h"
#include "version.h"

#define BUGS	FUTEXSIM_SOURCE_DIR "/workloads/bugs/"
#define NR_LESSON	43

/* The lesson's answers, one a line: 0 everywhere but three switches. */
static void lesson(char *buf, size_t len)
{
	size_t n = 0;

	for (int i = 1; i <= NR_LESSON; i++)
		n += (size_t)snprintf(buf + n, len - n, "%d\n",
				      i == 9 || i == 15 || i == 33);
}

struct play_in {
	const char *input;
	const char *bin;
	const char *const *argv;
};

/* In the child: @arg's input on stdin, then exec. */
static void play_exec(void *arg)
{
	const struct play_in *p = arg;
	FILE *in = tmpfile();

	if (!in)
		_exit(127);
	fputs(p->input, in);
	fflush(in);
	rewind(in);
	dup2(fileno(in), 0);
	execv(p->bin, (char *const *)p->argv);
	_exit(127);
}

/* Run $FUTEXSIM with @argv (NULL-ended, argv[0] the name it is run
 * under) and @input on its stdin into @o.  Return: 0 (skipped) if FUTEXSIM is not set. */
static int play(struct child_out *o, const char *input,
		const char *const *argv)
{
	struct play_in p = { input, getenv("FUTEXSIM"), argv };

	if (!p.bin || !*p.bin) {
		fprintf(stderr, "FUTEXSIM is not set: test skipped\n");
		return 0;
	}
	run_child(play_exec, &p, o);
	return 1;
}

static struct child_out *out_alloc(void)
{
	struct child_out *o = malloc(sizeof(*o));

	ck_assert_ptr_nonnull(o);
	return o;
}

/* The rest of the line after @prefix in @text, into @buf. */
static int line_after(const char *text, const char *prefix, char *buf,
		      size_t len)
{
	const char *p = strstr(text, prefix);

	if (!p)
		return 0;
	p += strlen(prefix);
	snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
	return 1;
}

START_TEST(test_play_lesson_reaches_the_lost_wakeup_and_replays_it)
{
	struct child_out *o = out_alloc();
	char in[4 * NR_LESSON + 1], why[300];
	/* argv[0] as a path: the replay command is spelled with it */
	const char *argv[] = { "build-x/futexsim", "play", BUGS "lost-wakeup.scn",
			       "--ops=2", "--seed=3", "--goal=lost-wakeup",
			       "--out=play-lesson.replay", NULL };
	const char *rargv[] = { "futexsim", "replay", "play-lesson.replay", NULL };

	lesson(in, sizeof(in));
	unlink("play-lesson.replay");
	if (!play(o, in, argv))
		goto out;
	ck_assert_msg(o->status == 0, "status %d: %s%s", o->status, o->out, o->err);
	ck_assert_msg(line_after(o->out, "goal reached: lost-wakeup: ", why, sizeof(why)),
		      "no goal reached: %s", o->out);
	ck_assert_msg(strstr(why, "sleeps in FUTEX_WAIT") && strstr(why, "free"), "%s", why);
	/* the screens: every question numbered, its choices listed */
	ck_assert_ptr_nonnull(strstr(o->out, "decision 43, 3 switches so far"));
	ck_assert_ptr_nonnull(strstr(o->out, "choices (which CPU runs next):"));
	ck_assert_ptr_nonnull(strstr(o->out, "  1  cpu 0  worker0"));
	ck_assert_ptr_nonnull(strstr(o->out, "futex words: lock "));
	ck_assert_ptr_nonnull(strstr(o->out, "FUTEX_WAIT returned EAGAIN"));
	ck_assert_ptr_nonnull(strstr(o->out, "play: replay file play-lesson.replay\n"
				     "  build-x/futexsim replay play-lesson.replay --narrate=yes\n"));
	ck_assert_ptr_null(strstr(o->out, "is not a command"));
	/* the replay reports the same lost wakeup */
	run_futexsim(o, rargv);
	ck_assert_msg(o->status == 3, "replay status %d: %s", o->status, o->err);
	ck_assert_ptr_nonnull(strstr(o->err, "DEADLOCK (lost wakeup)"));
	ck_assert_msg(strstr(o->err, why), "'%s' not in the replay's report: %s", why, o->err);
	ck_assert_ptr_null(strstr(o->err, "diverged"));
out:
	free(o);
}
END_TEST

/* play FILE.replay: the file's choices up to its last switch, then the
 * player's; the lesson's last switch made again saves the same file. */
START_TEST(test_play_goes_on_from_a_replay_file)
{
	struct child_out *o = out_alloc();
	char in[4 * NR_LESSON + 1];
	const char *argv[] = { "futexsim", "play", BUGS "lost-wakeup.scn",
			       "--ops=2", "--seed=3", "--out=play-from.replay", NULL };
	const char *again[] = { "futexsim", "play", "play-from.replay",
				"--goal=lost-wakeup", "--out=play-again.replay", NULL };
	const char *none[] = { "futexsim", "play", "play-none.replay", NULL };
	char *first, *second;
	size_t l1, l2;

	lesson(in, sizeof(in));
	if (!play(o, in, argv))
		goto out;
	ck_assert_msg(o->status == 3, "status %d: %s", o->status, o->out);
	first = slurp("play-from.replay", &l1);
	play(o, "1\n\n\n\n\n\n\n\n\n\n\n", again);
	ck_assert_msg(o->status == 0, "status %d: %s", o->status, o->out);
	ck_assert_ptr_nonnull(strstr(o->out, "play: play-from.replay: its first 32 choices are made again"));
	ck_assert_ptr_nonnull(strstr(o->out, "decision 33, 2 switches so far"));
	ck_assert_ptr_null(strstr(o->out, "decision 32,"));
	ck_assert_ptr_nonnull(strstr(o->out, "goal reached: lost-wakeup"));
	second = slurp("play-again.replay", &l2);
	ck_assert_msg(l1 == l2 && !memcmp(first, second, l1), "not the same schedule");
	free(second);
	/* negative control: another last choice, another schedule */
	play(o, "0\n", again);
	second = slurp("play-again.replay", &l2);
	ck_assert_msg(l1 != l2 || memcmp(first, second, l1), "the choice made no difference");
	free(first);
	free(second);
	unlink("play-none.replay");
	play(o, "", none);
	assert_one_line_error(o, "play-none.replay");
out:
	free(o);
}
END_TEST

START_TEST(test_play_correct_lock_never_loses_the_wakeup)
{
	struct child_out *o = out_alloc();
	char in[4 * NR_LESSON + 1];
	const char *argv[] = { "futexsim", "play", BUGS "lost-wakeup-ok.scn",
			       "--ops=2", "--seed=3", "--goal=lost-wakeup",
			       "--out=play-ok.replay", NULL };

	lesson(in, sizeof(in));
	if (!play(o, in, argv))
		goto out;
	ck_assert_msg(o->status == 7, "status %d: %s%s", o->status, o->out, o->err);
	ck_assert_ptr_null(strstr(o->out, "goal reached"));
	ck_assert_ptr_nonnull(strstr(o->out, "play: goal lost-wakeup not reached"));
	ck_assert_ptr_nonnull(strstr(o->out, "play: the run ended after"));
	ck_assert_int_eq(access("play-ok.replay", R_OK), 0);
out:
	free(o);
}
END_TEST

START_TEST(test_play_same_answers_give_the_same_bytes)
{
	struct child_out *a = out_alloc(), *b = out_alloc();
	char in[4 * NR_LESSON + 64], *fa, *fb;
	const char *argv[] = { "futexsim", "play", BUGS "lost-wakeup.scn",
			       "--ops=2", "--goal=eagain", "--out=play-det.replay",
			       NULL };
	size_t la, lb;

	/* undo, the seeded scheduler and bad lines too */
	snprintf(in, sizeof(in), "0\n1\nu\nbogus\n1\ns 4\n0\n1\nn 3\nu\n1\n0\nq\n");
	if (!play(a, in, argv))
		goto out;
	fa = slurp("play-det.replay", &la);
	play(b, in, argv);
	fb = slurp("play-det.replay", &lb);
	ck_assert_int_eq(a->status, b->status);
	ck_assert_msg(!strcmp(a->out, b->out), "two runs, two outputs");
	ck_assert_msg(la == lb && !memcmp(fa, fb, la), "two runs, two replay files");
	ck_assert_ptr_nonnull(strstr(a->out, "play: undone: back to decision"));
	free(fa);
	free(fb);
out:
	free(a);
	free(b);
}
END_TEST

/* Undo puts the run back as if the choice undone was never made. */
START_TEST(test_play_undo_forgets_the_last_choice)
{
	struct child_out *o = out_alloc();
	const char *argv[] = { "futexsim", "play", BUGS "lost-wakeup.scn",
			       "--ops=2", "--out=play-undo.replay", NULL };
	char *plain, *undone, *other;
	size_t lp, lu, lo;

	if (!play(o, "0\n1\n0\n1\nq\n", argv))
		goto out;
	ck_assert_msg(o->status == 0, "status %d: %s", o->status, o->err);
	ck_assert_ptr_nonnull(strstr(o->out, "play: quit after 4 decisions"));
	plain = slurp("play-undo.replay", &lp);
	play(o, "0\n1\n1\nu\n0\n1\nq\n", argv);
	ck_assert_ptr_nonnull(strstr(o->out, "play: undone: back to decision 3"));
	undone = slurp("play-undo.replay", &lu);
	/* negative control: the same choices, no undo */
	play(o, "0\n1\n1\n0\n1\nq\n", argv);
	other = slurp("play-undo.replay", &lo);
	ck_assert_msg(lp == lu && !memcmp(plain, undone, lp),
		      "the undone choice is still in the schedule");
	ck_assert_msg(lp != lo || memcmp(plain, other, lp),
		      "a different schedule saved the same file");
	free(plain);
	free(undone);
	free(other);
out:
	free(o);
}
END_TEST

START_TEST(test_play_bad_lines_are_asked_again)
{
	struct child_out *o = out_alloc();
	const char *argv[] = { "futexsim", "play", BUGS "lost-wakeup.scn",
			       "--goal=deadlock", "--out=play-bad.replay", NULL };
	const char *p;
	int prompts = 0;

	if (!play(o, "xyz\n9\ns x\nu\n?\nq\n", argv))
		goto out;
	ck_assert_msg(o->status == 7, "status %d: %s", o->status, o->err);
	ck_assert_ptr_nonnull(strstr(o->out, "play: 'xyz' is not a command: a choice 0 to 1"));
	ck_assert_ptr_nonnull(strstr(o->out, "play: no choice 9: choose 0 to 1\n"));
	ck_assert_ptr_nonnull(strstr(o->out, "play: 's x': s N wants a count"));
	ck_assert_ptr_nonnull(strstr(o->out, "play: nothing to undo"));
	ck_assert_ptr_nonnull(strstr(o->out, "  u      undo the last decision\n"));
	ck_assert_ptr_nonnull(strstr(o->out, "play: quit after 0 decisions"));
	for (p = o->out; (p = strstr(p, "play> ")); p++)
		prompts++;
	ck_assert_int_eq(prompts, 6);	/* one question, asked six times */
	ck_assert_str_eq(o->err, "");
out:
	free(o);
}
END_TEST

/* The end of input lets the seeded scheduler finish: never a hang. */
START_TEST(test_play_end_of_input_finishes_the_run)
{
	struct child_out *o = out_alloc();
	const char *argv[] = { "futexsim", "play", BUGS "lost-wakeup-ok.scn",
			       "--out=play-eof.replay", NULL };
	const char *rargv[] = { "futexsim", "replay", "play-eof.replay", NULL };

	if (!play(o, "", argv))
		goto out;
	ck_assert_msg(o->status == 0, "status %d: %s", o->status, o->err);
	ck_assert_ptr_nonnull(strstr(o->out, "play: end of input: the seeded scheduler finishes the run"));
	ck_assert_ptr_nonnull(strstr(o->out, "play: the run ended after"));
	ck_assert_ptr_nonnull(strstr(o->out, " 10 operations\n"));
	run_futexsim(o, rargv);
	ck_assert_msg(o->status == 0, "replay status %d: %s", o->status, o->err);
out:
	free(o);
}
END_TEST

/* eagain is counted at the futex exit; the replay's report counts it. */
START_TEST(test_play_eagain_goal_is_counted)
{
	struct child_out *o = out_alloc();
	char in[4 * NR_LESSON + 1];
	const char *argv[] = { "futexsim", "play", BUGS "lost-wakeup.scn",
			       "--ops=2", "--seed=3", "--goal=eagain",
			       "--out=play-eagain.replay", NULL };
	const char *rargv[] = { "futexsim", "replay", "play-eagain.replay", NULL };

	lesson(in, sizeof(in));
	if (!play(o, in, argv))
		goto out;
	ck_assert_msg(o->status == 0, "status %d: %s", o->status, o->out);
	ck_assert_ptr_nonnull(strstr(o->out, "goal reached: eagain: a FUTEX_WAIT returned EAGAIN"));
	run_futexsim(o, rargv);
	ck_assert_ptr_nonnull(strstr(o->out, "FUTEX_WAIT EAGAIN (% lock)"));
	ck_assert_ptr_null(strstr(o->out, "FUTEX_WAIT EAGAIN (% lock)     0"));
	/* negative control: no choice made, no EAGAIN */
	play(o, "q\n", argv);
	ck_assert_int_eq(o->status, 7);
	ck_assert_ptr_null(strstr(o->out, "goal reached"));
out:
	free(o);
}
END_TEST

/*
 * The seeded scheduler to the end (c): the game's verdict on a steal
 * agrees with the replay's count of kernel steals, both ways; mutex is
 * reached with the racy lock, never with ww.
 */
START_TEST(test_play_steal_and_mutex_goals_agree_with_the_replay)
{
	struct child_out *o = out_alloc();
	const char *steal[] = { "futexsim", "play", "--lock=tp", "--threads=3",
				"--ops=20", "--machine=tiny4", "--goal=steal",
				"--seed=5", "--out=play-steal.replay", NULL };
	const char *rargv[] = { "futexsim", "replay", "play-steal.replay", NULL };
	const char *racy[] = { "futexsim", "play", BUGS "racy-mutex.scn",
			       "--goal=mutex", "--seed=2", "--out=play-racy.replay", NULL };
	char row[200];
	int steals = -1;

	if (!play(o, "c\n", steal))
		goto out;
	ck_assert_msg(o->status == 0, "status %d: %s", o->status, o->out);
	ck_assert_ptr_nonnull(strstr(o->out, "goal reached: steal: a TP FUTEX_LOCK stole the lock"));
	run_futexsim(o, rargv);
	ck_assert_msg(line_after(o->out, "TP kernel steals (% ops)", row, sizeof(row)),
		      "%s", o->out);
	ck_assert_msg(sscanf(row, "%d", &steals) == 1 && steals > 0, "%s", row);
	steal[7] = "--seed=2";	/* a run with no steal */
	play(o, "c\n", steal);
	ck_assert_msg(o->status == 7, "status %d: %s", o->status, o->out);
	run_futexsim(o, rargv);
	ck_assert(line_after(o->out, "TP kernel steals (% ops)", row, sizeof(row)));
	ck_assert_msg(sscanf(row, "%d", &steals) == 1 && steals == 0, "%s", row);
	play(o, "c\n", racy);
	ck_assert_msg(o->status == 0, "status %d: %s", o->status, o->out);
	ck_assert_ptr_nonnull(strstr(o->out, "goal reached: mutex: mutual exclusion violated"));
	racy[2] = BUGS "lost-wakeup-ok.scn";
	play(o, "c\n", racy);
	ck_assert_msg(o->status == 7, "status %d: %s", o->status, o->out);
out:
	free(o);
}
END_TEST

START_TEST(test_play_bad_command_line_is_one_line)
{
	struct child_out *o = out_alloc();
	const char *goal[] = { "futexsim", "play", "--goal=win", NULL };
	const char *steal[] = { "futexsim", "play", "--goal=steal", "--lock=ww", NULL };
	const char *oracle[] = { "futexsim", "play", "--goal=mutex",
				 "--oracle=deadlock", NULL };

	if (!play(o, "", goal))
		goto out;
	assert_one_line_error(o, "goal", "lost-wakeup, deadlock, mutex, eagain, steal", "win");
	play(o, "", steal);
	assert_one_line_error(o, "lock", "lock=tp", "ww");
	play(o, "", oracle);
	assert_one_line_error(o, "oracle", "the goal's oracle");
out:
	free(o);
}
END_TEST

/* Build ./play-early, tests/programs/early_signal.c (a condition
 * variable signalled before its waiter waits), with $FUTEXSIM.
 * Return: 0 (skipped) if it is not set. */
static int build_early(struct child_out *o)
{
	const char *argv[] = { "futexsim", "build",
			       FUTEXSIM_SOURCE_DIR "/tests/programs/early_signal.c",
			       "-o", "play-early", NULL };

	if (!run_futexsim(o, argv))
		return 0;
	ck_assert_msg(o->status == 0, "build: %s", o->err);
	return 1;
}

/* Run the program binary ./play-early with "play" and @more options. */
static void play_program(struct child_out *o, const char *input,
			 const char *more)
{
	const char *argv[] = { "./play-early", "play", more, NULL };
	struct play_in p = { input, "./play-early", argv };

	run_child(play_exec, &p, o);
}

/*
 * A program built by `futexsim build` is played as a built-in workload
 * is: its tasks and words by name on the screen, its runs made again in
 * one process (the program's data put back between them).  Running the
 * main thread on ("c": the seeded scheduler, which keeps it) lets it
 * signal before the waiter waits: the deadlock goal, whose replay file,
 * named after the program, fails again.  Running the waiter first (1,
 * then 0s) lets it wait first: the run ends, no goal.  Same input, same
 * bytes.
 */
START_TEST(test_play_a_user_program)
{
	struct child_out *o = out_alloc(), *o2 = out_alloc();
	const char *rep[] = { "./play-early", "replay",
			      "futexsim-play-play-early.replay", NULL };

	if (!build_early(o))
		goto out;
	play_program(o, "c\n", "--goal=deadlock");
	ck_assert_msg(o->status == 0, "status %d: %s%s", o->status, o->out, o->err);
	ck_assert_ptr_nonnull(strstr(o->out, "== futexsim play: program ./play-early, lock ww, seed 1, goal deadlock; decision 1,"));
	ck_assert_ptr_nonnull(strstr(o->out, "  main       tid 100  cpu 0  running\n"));
	ck_assert_ptr_nonnull(strstr(o->out, "goal reached: deadlock: every task is blocked"));
	ck_assert_ptr_nonnull(strstr(o->out, "play: replay file futexsim-play-play-early.replay\n"));
	run_program("./play-early", (char *const *)rep, o2);
	ck_assert_int_eq(o2->status, 3);
	ck_assert_ptr_nonnull(strstr(o2->err, "waits on cv (early_signal.c:20)"));
	/* the waiter first: it waits before the signal */
	play_program(o, "1\n0\n0\n", "--goal=deadlock");
	ck_assert_int_eq(o->status, 7);
	ck_assert_ptr_nonnull(strstr(o->out, "  1  cpu 1  thread1: in user space  (switch)\n"));
	ck_assert_ptr_nonnull(strstr(o->out, "play: goal deadlock not reached\n"));
	play_program(o2, "1\n0\n0\n", "--goal=deadlock");
	ck_assert_str_eq(o->out, o2->out);
out:
	free(o);
	free(o2);
}
END_TEST

/* A binary that cannot put the program's data back between runs (a
 * process per run: FUTEXSIM_EXPLORE_FORK=1) is refused in one line. */
START_TEST(test_play_a_program_needs_its_runs_in_one_process)
{
	struct child_out *o = out_alloc();

	if (!build_early(o))
		goto out;
	setenv("FUTEXSIM_EXPLORE_FORK", "1", 1);
	play_program(o, "c\n", "--goal=deadlock");
	unsetenv("FUTEXSIM_EXPLORE_FORK");
	assert_one_line_error(o, "workload", "a program built by `futexsim build`", "program");
out:
	free(o);
}
END_TEST

/*
 * A real terminal: tests/play-tmux.sh types the lesson into `futexsim
 * play` in a detached tmux window and checks the screen; the correct
 * lock under the same keys must not reach the goal.
 */
START_TEST(test_play_on_a_terminal_through_tmux)
{
	struct child_out *o = out_alloc();
	const char *bin = getenv("FUTEXSIM");
	char in[4 * NR_LESSON + 1];
	const char *argv[] = { "sh", FUTEXSIM_SOURCE_DIR "/tests/play-tmux.sh",
			       bin, BUGS "lost-wakeup.scn", "lost-wakeup",
			       "play-tmux.in", "--ops=2", "--seed=3", NULL };
	FILE *f;

	if (!bin || !*bin) {
		fprintf(stderr, "FUTEXSIM is not set: test skipped\n");
		goto out;
	}
	lesson(in, sizeof(in));
	f = fopen("play-tmux.in", "w");
	ck_assert_ptr_nonnull(f);
	fputs(in, f);
	fclose(f);
	run_program("/bin/sh", (char *const *)argv, o);
	if (o->status == 77) {
		fprintf(stderr, "tmux is not installed: the terminal test is skipped\n");
		goto out;
	}
	ck_assert_msg(o->status == 0, "status %d: %s%s", o->status, o->out, o->err);
	ck_assert_ptr_nonnull(strstr(o->out, "choices (which CPU runs next):"));
	ck_assert_ptr_nonnull(strstr(o->out, "goal reached: lost-wakeup: task 101"));
	ck_assert_ptr_nonnull(strstr(o->out, "play exited with status 0"));
	printf("%s", o->out);	/* the last screen, for the log */
	/* negative control: the correct lock, the same keys */
	argv[3] = BUGS "lost-wakeup-ok.scn";
	setenv("PLAY_TMUX_TIMEOUT", "3", 1);
	run_program("/bin/sh", (char *const *)argv, o);
	unsetenv("PLAY_TMUX_TIMEOUT");
	ck_assert_msg(o->status == 1, "status %d: %s%s", o->status, o->out, o->err);
	ck_assert_ptr_null(strstr(o->out, "goal reached"));
out:
	free(o);
}
END_TEST

Suite *play_suite(void)
{
	return one_case_suite("play", 120, (const TTest *const[]){
		test_play_lesson_reaches_the_lost_wakeup_and_replays_it,
		test_play_goes_on_from_a_replay_file,
		test_play_correct_lock_never_loses_the_wakeup,
		test_play_same_answers_give_the_same_bytes,
		test_play_undo_forgets_the_last_choice,
		test_play_bad_lines_are_asked_again,
		test_play_end_of_input_finishes_the_run,
		test_play_eagain_goal_is_counted,
		test_play_steal_and_mutex_goals_agree_with_the_replay,
		test_play_bad_command_line_is_one_line,
		test_play_a_user_program,
		test_play_a_program_needs_its_runs_in_one_process,
		test_play_on_a_terminal_through_tmux,
		NULL });
}
