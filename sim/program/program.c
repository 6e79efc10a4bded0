/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/program/program.c - --program: user programs on the command line
 * (see sim/program/program.h); `futexsim build` is sim/program/build.c.
 *
 * Stage: CLI, at the ends of the flow (run: the exec of the program's
 * binary; the report's program lines).  Called by sim/cli/cli.c and
 * sim/program/build.c; exec()s program binaries.  sim_program_spawn(),
 * a fork and exec, runs the compiler of `futexsim build` and the
 * commands of sim/explore/explore_run.c and bench/bench_spawn.c.
 */
#define _GNU_SOURCE		/* memmem() */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "version.h"
#include "sim/machine/memmodel.h"
#include "sim/host/outfile.h"
#include "sim/scenario/config.h"
#include "sim/program/program.h"
#include "workloads/workload.h"

int futexsim_user_main(int argc, char **argv, char **envp)
	__attribute__((weak));

static int prog_argc;
static char **prog_argv;

void sim_program_args(int argc, char **argv)
{
	prog_argc = argc;
	prog_argv = argv;
}

bool sim_program_linked(void)
{
	return futexsim_user_main != NULL;
}

/* Is @path a binary made by `futexsim build`? (It has the symbol.) */
static int is_program(const char *path)
{
	static const char sym[] = "futexsim_user_main";
	char buf[1 << 16];
	size_t n, keep = 0;
	int found = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		return 0;
	while (!found && (n = fread(buf + keep, 1, sizeof(buf) - keep, f)) > 0) {
		n += keep;
		found = memmem(buf, n, sym, sizeof(sym) - 1) != NULL;
		keep = sizeof(sym) - 1;
		memmove(buf, buf + n - keep, keep);
	}
	fclose(f);
	return found;
}

/* Is @path ("" : none) another binary than the running one? */
static int other_program(const char *path)
{
	char self[PATH_MAX], other[PATH_MAX];

	if (!*path || !realpath("/proc/self/exe", self) ||
	    !realpath(path, other))
		return 0;
	return strcmp(self, other) != 0;
}

/*
 * A program's binary runs its program: a built-in workload, or a key
 * that only a built-in workload has, given on the command line or in a
 * scenario file, is bad input rather than silently ignored.
 */
void sim_program_refuse_builtin_keys(const struct sim_scenario *s)
{
	static const char why[] = "a key that applies to a program (its threads and work are its own: pass them in --args)";
	const struct { const char *key; const struct sim_origin *at; } k[] = {
		{ "threads", &s->threads_at }, { "ops", &s->ops_at },
		{ "ops-per-thread", &s->ops_per_thread_at },
		{ "duration", &s->duration_at }, { "cs", &s->cs_at },
		{ "between", &s->between_at },
	};

	if (s->workload_at.file && strcmp(s->workload, "program") != 0)
		sim_config_fail(&s->workload_at, "workload",
				"program (this binary runs its own program; the futexsim binary runs the built-in workloads)",
				s->workload);
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (k[i].at->file)
			sim_config_fail(k[i].at, k[i].key, why, NULL);
}

/* Defined (as 1, by the linker) in a program built with `futexsim build
 * --instrument` (sim/program/build.c): its accesses are hooks. */
extern const char futexsim_instrumented __attribute__((weak));

/*
 * memory=tso|arm64 works on the stores of an instrumented program and of
 * the libraries (the built-in workloads' user locks, workloads/ulock):
 * a program that is not instrumented would have its own stores in order
 * and its library's buffered, which no hardware does, so it is bad
 * input.  The race oracle works on an instrumented program's accesses
 * and an instrumented kernel's (make INSTR=1): anywhere else it would do
 * nothing.
 */
static void refuse_uninstrumented(const struct sim_scenario *s, int program)
{
	static const char *const names[] = { "sc", "tso", "arm64" };
	const int prog_instr = program && &futexsim_instrumented;

	if (s->memory != SIM_MEMORY_SC && program && !prog_instr)
		sim_config_fail(&s->memory_at, "memory",
				"sc: this program is not instrumented (build it with 'futexsim build --instrument')",
				names[s->memory]);
	if ((s->oracles.mask & SIM_ORACLE_RACE) && !prog_instr &&
	    !FUTEXSIM_KERNEL_INSTRUMENTED)
		sim_config_fail(&s->oracle_at, "oracle", program ?
				"no race: this program is not instrumented (build it with 'futexsim build --instrument') and nor is the kernel (make INSTR=1)" :
				"no race: the race oracle watches a program built with 'futexsim build --instrument' or a kernel built with make INSTR=1",
				s->oracle);
}

void sim_program_select(struct sim_scenario *s)
{
	static const struct sim_origin key = { .file = "command line or scenario" };
	char **av;

	if (futexsim_user_main && !other_program(s->program)) {
		sim_program_refuse_builtin_keys(s);
		refuse_uninstrumented(s, 1);
		unsetenv("FUTEXSIM_PROGRAM_EXEC");
		strcpy(s->workload, "program");
		s->wl = &wl_program;
		if (!s->program[0] && prog_argv)
			snprintf(s->program, sizeof(s->program), "%s",
				 prog_argv[0]);
		return;
	}
	if (!s->program[0]) {
		/* arguments with no program to take them: a forgotten
		 * --program would run the built-in workload instead */
		if (s->args[0])
			sim_config_fail(&s->args_at, "args",
					"a program to pass them to (--program=./PROG, or ./PROG run)",
					s->args);
		refuse_uninstrumented(s, 0);
		return;
	}
	/* the weak symbol's name is in every futexsim binary: one exec */
	if (access(s->program, X_OK) || !is_program(s->program) ||
	    getenv("FUTEXSIM_PROGRAM_EXEC"))
		sim_config_fail(&key, "program",
				"an executable built by 'futexsim build'",
				s->program);
	av = calloc(prog_argc + 1, sizeof(*av));
	if (!av)
		exit(SIM_EXIT_HOST);
	av[0] = s->program;
	for (int i = 1; i < prog_argc; i++)
		av[i] = prog_argv[i];
	fflush(NULL);
	setenv("FUTEXSIM_PROGRAM_EXEC", "1", 1);
	execv(s->program, av);
	fprintf(stderr, "futexsim: cannot run %s: %s\n", s->program,
		strerror(errno));
	exit(SIM_EXIT_HOST);
}

static int tls_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_TLS &&
		    info->dlpi_phdr[i].p_memsz)
			*(int *)arg = 1;
	return 1;	/* the first object is the executable: enough */
}

/* Does this executable (the program's binary) define thread-local
 * variables?  The simulator defines none: they are the program's, or
 * those of a library linked into it. */
static int program_has_tls(void)
{
	int tls = 0;

	dl_iterate_phdr(tls_phdr, &tls);
	return tls;
}

void sim_program_report(FILE *out, const struct sim_scenario *s,
			const struct sim_result *r, int nr)
{
	if (strcmp(s->workload, "program") != 0)
		return;
	fputc('\n', out);
	for (int i = 0; i < nr; i++) {
		fprintf(out, "program %s (lock %s): ", s->program, r[i].lock);
		if (r[i].prog_exited)
			fprintf(out, "exit status %d", r[i].prog_status);
		else
			fputs("did not exit", out);
		fprintf(out, ", %d thread%s\n", r[i].prog_threads,
			r[i].prog_threads == 1 ? "" : "s");
	}
	if (program_has_tls())
		fputs("note: the program's __thread variables are one variable shared by all its threads in the simulation, not one each (docs/programs.md, \"Limits that cannot be detected\")\n",
		      out);
}

int sim_program_status(const struct sim_result *r, int nr)
{
	for (int i = 0; i < nr; i++)
		if (r[i].prog_exited && r[i].prog_status)
			return SIM_EXIT_PROGRAM;
	return 0;
}

int sim_program_spawn(const char *path, char *const argv[], const char *out,
		      const char *who)
{
	struct sim_outfile o = { .fd = -1 };
	int status;
	pid_t pid;

	if (out && sim_outfile_open(&o, out)) {
		fprintf(stderr, "%s: %s: %s\n", who, out, strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		sim_outfile_discard(&o);
		return -1;
	}
	if (pid == 0) {
		/* the command writes the temporary; this process renames it */
		if (out && o.fd != STDOUT_FILENO)
			dup2(o.fd, STDOUT_FILENO);
		if (path)
			execv(path, argv);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", who, argv[0],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			sim_outfile_discard(&o);
			return -1;
		}
	status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) :
		 WEXITSTATUS(status);
	if (status)
		sim_outfile_discard(&o);	/* the file as it was */
	else if (sim_outfile_commit(&o))
		return -1;
	return status;
}
