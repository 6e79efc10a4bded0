/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/output.c - printf() and friends of a simulated
 * program: its stdout and stderr, captured per task.
 *
 * Stage: user program -> report.  Called by the program through
 * workloads/libsim/futexsim.h; writes to the host's stdout and stderr.
 *
 * Each task has a line buffer per stream.  A line goes out, whole, with
 * one write(2), when its newline is written: lines of different tasks
 * never mix, and they appear in the order the simulation ended them,
 * which is the same in every run of the same scenario and seed.  A line
 * left without a newline goes out when its task exits or the program
 * ends (fflush() does not cut a line).  Everything a task wrote is also
 * kept in order in its struct wl_prog_thread (->all) for the tests.  Other
 * FILE streams and file descriptors are files, which are not simulated:
 * writing to one ends the run with a report.  error(3) writes its
 * line on stderr; dup2() between descriptors 1 and 2 changes nothing
 * (each stream stays captured as itself).
 *
 * The program's variables stdout and stderr are futexsim_stdout and
 * futexsim_stderr here (futexsim.h renames them), not libc's: a program
 * that assigns one (stdout = stderr, as a program that logs everything
 * to stderr may) moves its own printf() as in a process of its own, and
 * the simulator's report, written through libc's, stays where it goes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"
#include "sim/report/exit.h"

int wl_prog_mute;

FILE *futexsim_stdout, *futexsim_stderr;
static FILE *start_stdout, *start_stderr;

/*
 * Before the program's constructors (they run without a priority).  In
 * .text, not .text.startup where gcc puts a constructor: that section
 * is linked before all the simulator's code, and 32 more bytes there
 * move every hot function by 32 bytes, which made explore 3-5% slower
 * (docs/bench.md, "Code layout").
 */
static void __attribute__((constructor(101), section(".text"))) streams_init(void)
{
	futexsim_stdout = stdout;
	futexsim_stderr = stderr;
}

void wl_prog_streams_start(void)
{
	if (!start_stdout) {	/* the first start: after the constructors */
		start_stdout = futexsim_stdout;
		start_stderr = futexsim_stderr;
	}
	futexsim_stdout = start_stdout;
	futexsim_stderr = start_stderr;
}

static void put_all(int fd, const char *p, size_t n)
{
	if (wl_prog_mute)
		return;
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			return;		/* the reader went away */
		}
		p += w;
		n -= (size_t)w;
	}
}

static void append(char **buf, size_t *len, size_t *cap, const char *p,
		   size_t n)
{
	if (*len + n + 1 > *cap) {
		*cap = (*len + n + 1) * 2;
		*buf = realloc(*buf, *cap);
		if (!*buf) {
			fprintf(stderr, "futexsim: out of memory for program output\n");
			exit(SIM_EXIT_INPUT);
		}
	}
	memcpy(*buf + *len, p, n);
	*len += n;
	(*buf)[*len] = '\0';
}

void wl_prog_out(int fd, const char *p, size_t n)
{
	struct wl_prog_thread *t = wl_prog_self();
	const char *nl;

	if (!t) {
		put_all(fd, p, n);
		return;
	}
	append(&t->all, &t->all_len, &t->all_cap, p, n);
	while (n && (nl = memchr(p, '\n', n))) {
		size_t k = (size_t)(nl - p) + 1;

		if (t->line_len[fd]) {
			append(&t->line[fd], &t->line_len[fd], &t->line_cap[fd], p, k);
			put_all(fd, t->line[fd], t->line_len[fd]);
			t->line_len[fd] = 0;
		} else {
			put_all(fd, p, k);
		}
		p += k;
		n -= k;
	}
	if (n)
		append(&t->line[fd], &t->line_len[fd], &t->line_cap[fd], p, n);
}

void wl_prog_out_flush(struct wl_prog_thread *t)
{
	for (int fd = 1; fd <= 2; fd++) {
		if (t->line_len[fd])
			put_all(fd, t->line[fd], t->line_len[fd]);
		t->line_len[fd] = 0;
	}
}

/* The stream of @f: 1 or 2; any other stream is a file. */
static int stream_fd(FILE *f, const char *call)
{
	char what[96];

	if (f == stdout)
		return 1;
	if (f == stderr)
		return 2;
	snprintf(what, sizeof(what), "%s() to a file: files are not simulated (stdout and stderr only)",
		 call);
	wl_prog_fail(what);
}

int futexsim_vfprintf(FILE *f, const char *fmt, va_list ap)
{
	int fd = stream_fd(f, "fprintf");
	char small[512], *buf = small;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (buf)
			vsnprintf(buf, (size_t)n + 1, fmt, aq);
	}
	va_end(aq);
	if (n > 0 && buf)
		wl_prog_out(fd, buf, (size_t)n);
	if (buf != small)
		free(buf);
	return n;
}

int futexsim_vprintf(const char *fmt, va_list ap)
{
	return futexsim_vfprintf(futexsim_stdout, fmt, ap);
}

int futexsim_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = futexsim_vfprintf(futexsim_stdout, fmt, ap);
	va_end(ap);
	return n;
}

int futexsim_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = futexsim_vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

int futexsim_dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (fd != 1 && fd != 2)
		wl_prog_fail("dprintf() to a file: files are not simulated");
	va_start(ap, fmt);
	n = futexsim_vfprintf(fd == 1 ? stdout : stderr, fmt, ap);
	va_end(ap);
	return n;
}

int futexsim_fputs(const char *s, FILE *f)
{
	wl_prog_out(stream_fd(f, "fputs"), s, strlen(s));
	return 1;
}

int futexsim_puts(const char *s)
{
	int fd = stream_fd(futexsim_stdout, "puts");

	wl_prog_out(fd, s, strlen(s));
	wl_prog_out(fd, "\n", 1);
	return 1;
}

int futexsim_fputc(int c, FILE *f)
{
	char ch = (char)c;

	wl_prog_out(stream_fd(f, "fputc"), &ch, 1);
	return (unsigned char)c;
}

int futexsim_putchar(int c)
{
	return futexsim_fputc(c, futexsim_stdout);
}

size_t futexsim_fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	wl_prog_out(stream_fd(f, "fwrite"), p, size * n);
	return n;
}

int futexsim_fflush(FILE *f)
{
	if (f && f != stdout && f != stderr)
		stream_fd(f, "fflush");
	return 0;
}

void futexsim_perror(const char *s)
{
	const char *msg = strerror(errno);
	int fd = stream_fd(futexsim_stderr, "perror");

	if (s && *s) {
		wl_prog_out(fd, s, strlen(s));
		wl_prog_out(fd, ": ", 2);
	}
	wl_prog_out(fd, msg, strlen(msg));
	wl_prog_out(fd, "\n", 1);
}

ssize_t futexsim_write(int fd, const void *p, size_t n)
{
	if (fd != 1 && fd != 2)
		wl_prog_fail("write() to a file descriptor other than 1 and 2: files are not simulated");
	wl_prog_out(fd, p, n);
	return (ssize_t)n;
}

/* error(3): "PROGRAM: message[: strerror(errnum)]" on stderr, then
 * exit(@status) unless it is 0. */
void futexsim_error(int status, int errnum, const char *fmt, ...)
{
	char buf[1024];
	const char *prog = wl_prog.argv && wl_prog.argv[0] ? wl_prog.argv[0] :
			   "program";
	int fd = stream_fd(futexsim_stderr, "error");
	va_list ap;

	wl_prog_out(fd, prog, strlen(prog));
	wl_prog_out(fd, ": ", 2);
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	wl_prog_out(fd, buf, strlen(buf));
	if (errnum) {
		const char *msg = strerror(errnum);

		wl_prog_out(fd, ": ", 2);
		wl_prog_out(fd, msg, strlen(msg));
	}
	wl_prog_out(fd, "\n", 1);
	if (status)
		futexsim_exit(status);
}

/* dup2() between stdout and stderr: both are the run's captured streams,
 * each kept apart, so there is nothing to do; any other descriptor is a
 * file, not simulated. */
int futexsim_dup2(int oldfd, int newfd)
{
	if ((oldfd != 1 && oldfd != 2) || (newfd != 1 && newfd != 2))
		wl_prog_fail("dup2() of a descriptor other than 1 and 2: files are not simulated");
	return newfd;
}
