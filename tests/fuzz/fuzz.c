/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/fuzz/fuzz.c - the shared side of the fuzz targets (tests/fuzz/fuzz.h):
 * the fail hook's longjmp(), stderr captured per call, the streams left
 * open by a parser cut short, scratch files.
 *
 * Stage: tests (fuzzing).  Linked into every target of `make fuzz`; calls
 * libc and sets sim_config_fail_hook (sim/scenario/config.h).
 *
 * Why the wraps: sim_config_read() (sim/scenario/config.c) and the
 * replay reader hold a FILE and a line buffer when they fail; in
 * futexsim the exit cleans up, here the next input comes.  Unclosed,
 * they would exhaust the descriptors after about a thousand bad inputs
 * and grow the heap by 64 KiB per input.  Other allocations a failed
 * parse leaves behind are small (a value's copy; run with
 * -detect_leaks=0).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/scenario/config.h"
#include "tests/fuzz/fuzz.h"

#define OPEN_MAX_TRACKED	32

static char dir[64];
static FILE *real_err;
static jmp_buf env;
static int in_call;
static char *msg;
static size_t msg_len;
static int verbose;		/* FUTEXSIM_FUZZ_VERBOSE=1		*/
static const void *input;	/* the input being run			*/
static size_t input_len;

/* ---- streams and line buffers ------------------------------------------- */

FILE *__real_fopen(const char *path, const char *mode);
int __real_fclose(FILE *f);
ssize_t __real_getline(char **line, size_t *cap, FILE *f);
void *__real_malloc(size_t n);
void __real_free(void *p);

static struct {
	FILE *f;
	char **line;	/* the caller's getline() buffer, if any	*/
} open_f[OPEN_MAX_TRACKED];

/* sim_config_read()'s line buffers (SIM_CONFIG_LINE_MAX + 1 bytes: no
 * other block has that size), live, allocated in a call */
static void *line_buf[OPEN_MAX_TRACKED];
static int nr_line_buf;

FILE *__wrap_fopen(const char *path, const char *mode)
{
	FILE *f = __real_fopen(path, mode);

	for (int i = 0; f && in_call && i < OPEN_MAX_TRACKED; i++)
		if (!open_f[i].f) {
			open_f[i].f = f;
			open_f[i].line = NULL;
			break;
		}
	return f;
}

int __wrap_fclose(FILE *f)
{
	for (int i = 0; i < OPEN_MAX_TRACKED; i++)
		if (open_f[i].f == f)
			open_f[i].f = NULL;
	return __real_fclose(f);
}

ssize_t __wrap_getline(char **line, size_t *cap, FILE *f)
{
	for (int i = 0; i < OPEN_MAX_TRACKED; i++)
		if (open_f[i].f == f)
			open_f[i].line = line;
	return __real_getline(line, cap, f);
}

void *__wrap_malloc(size_t n)
{
	void *p = __real_malloc(n);

	if (p && in_call && n == SIM_CONFIG_LINE_MAX + 1 &&
	    nr_line_buf < OPEN_MAX_TRACKED)
		line_buf[nr_line_buf++] = p;
	return p;
}

void __wrap_free(void *p)
{
	for (int i = 0; p && i < nr_line_buf; i++)
		if (line_buf[i] == p) {
			line_buf[i] = line_buf[--nr_line_buf];
			break;
		}
	__real_free(p);
}

/* Close what the call left open; free the getline() and line buffers of
 * the readers a failure cut short (a reader frees its own buffer before
 * it closes its stream). */
static void close_left_open(int failed)
{
	for (int i = 0; i < OPEN_MAX_TRACKED; i++) {
		if (!open_f[i].f)
			continue;
		if (failed && open_f[i].line) {
			__real_free(*open_f[i].line);
			*open_f[i].line = NULL;
		}
		__real_fclose(open_f[i].f);
		open_f[i].f = NULL;
	}
	while (failed && nr_line_buf)
		__real_free(line_buf[--nr_line_buf]);
	nr_line_buf = 0;
}

/* ---- calls ---------------------------------------------------------------- */

static void fail_hook(void)
{
	if (in_call)
		longjmp(env, 1);
	/* outside fuzz_call(): futexsim's own behaviour, the exit */
}

void fuzz_die(const char *what, const char *detail)
{
	FILE *out = real_err ? real_err : stderr;

	fprintf(out, "fuzz: %s: %s\n", program_invocation_short_name, what);
	if (detail)
		fprintf(out, "%s%s", detail,
			*detail && detail[strlen(detail) - 1] == '\n' ? "" : "\n");
	fflush(out);
	abort();
}

void fuzz_input(const void *data, size_t n)
{
	input = data;
	input_len = n;
}

/* The first input of an ignored finding @tag, as ./known-TAG. */
static void save_known(const char *tag)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "known-%s", tag);
	f = __real_fopen(path, "w");
	if (!f)
		return;
	if (input)
		fwrite(input, 1, input_len, f);
	__real_fclose(f);
}

void fuzz_finding(const char *tag, const char *what, const char *detail)
{
	static char told[256];
	const char *ign = getenv("FUTEXSIM_FUZZ_IGNORE");
	size_t n = strlen(tag);

	for (const char *p = ign; p && *p; p += strcspn(p, ","), p += !!*p) {
		if (strncmp(p, tag, n) || (p[n] && p[n] != ','))
			continue;
		if (!strstr(told, tag) && strlen(told) + n + 2 < sizeof(told)) {
			save_known(tag);
			fprintf(real_err, "fuzz: %s: ignored (FUTEXSIM_FUZZ_IGNORE): %s: %s\n%s%s",
				program_invocation_short_name, tag, what,
				detail ? detail : "",
				detail && *detail &&
				detail[strlen(detail) - 1] != '\n' ? "\n" : "");
			strcat(strcat(told, tag), ",");
		}
		return;
	}
	fuzz_die(what, detail);
}

/* The message of a failure: one line "futexsim: ...", printable. */
static void check_message(void)
{
	size_t n = msg_len;
	const char *last;

	if (strlen(msg) != n) {
		fuzz_finding("lines", "a NUL in a bad-input message", msg);
		return;
	}
	if (!n || msg[n - 1] != '\n') {
		fuzz_finding("lines", "a bad-input message without its newline", msg);
		return;
	}
	last = n > 1 ? memrchr(msg, '\n', n - 1) : NULL;
	last = last ? last + 1 : msg;
	if (strncmp(last, "futexsim: ", 10) != 0 || strchr(last, '\r')) {
		fuzz_finding("lines",
			     "a bad-input message that is not one 'futexsim: ...' line",
			     msg);
		return;
	}
	for (const char *c = last; c < msg + n - 1; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			fuzz_finding("ctrl",
				     "a control character in a bad-input message",
				     msg);
			return;
		}
}

int fuzz_call(void (*fn)(void *ctx), void *ctx)
{
	volatile int failed = 0;
	FILE *cap;

	free(msg);
	msg = NULL;
	msg_len = 0;
	fflush(stderr);
	cap = open_memstream(&msg, &msg_len);
	if (!cap)
		fuzz_die("open_memstream", strerror(errno));
	stderr = cap;
	in_call = 1;
	if (setjmp(env))
		failed = 1;
	else
		fn(ctx);
	in_call = 0;
	stderr = real_err;
	fclose(cap);
	close_left_open(failed);
	if (failed)
		check_message();
	if (failed && verbose)
		fprintf(real_err, "fuzz: bad input: %s", msg);
	return failed ? -1 : 0;
}

const char *fuzz_message(void)
{
	return msg ? msg : "";
}

/* ---- files ---------------------------------------------------------------- */

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

static void rm_dir(void)
{
	if (dir[0])
		nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* The scratch directory: in /dev/shm, a tmpfs, where it can be (a file
 * system on disk writes back what each input writes: 20 times slower),
 * else in $TMPDIR or /tmp. */
void fuzz_init(void)
{
	const char *tmp = getenv("TMPDIR");
	const char *base[] = { "/dev/shm", tmp && *tmp && strlen(tmp) < 32 ?
					   tmp : "/tmp" };

	real_err = stderr;
	for (int i = 0; i < 2 && !dir[0]; i++) {
		snprintf(dir, sizeof(dir), "%s/futexsim-fuzz-XXXXXX", base[i]);
		if (!mkdtemp(dir))
			dir[0] = '\0';
	}
	if (!dir[0])
		fuzz_die("cannot make the scratch directory", base[1]);
	atexit(rm_dir);
	unsetenv("FUTEXSIM_MACHINES");
	verbose = getenv("FUTEXSIM_FUZZ_VERBOSE") != NULL;
	sim_config_fail_hook = fail_hook;
}

const char *fuzz_file(const char *name, const void *data, size_t n)
{
	static char paths[4][128];
	static const char *names[4];
	char *path = NULL;
	FILE *f;

	for (int i = 0; i < 4 && !path; i++) {
		if (!names[i])
			names[i] = name;
		if (!strcmp(names[i], name))
			path = paths[i];
	}
	if (!path)
		fuzz_die("more than 4 scratch file names", name);
	snprintf(path, 128, "%s/%s", dir, name);
	f = __real_fopen(path, "w");
	if (!f || fwrite(data, 1, n, f) != n || __real_fclose(f))
		fuzz_die("cannot write a scratch file", path);
	return path;
}

/* ---- helpers -------------------------------------------------------------- */

int fuzz_selftest(void)
{
	const char *v = getenv("FUTEXSIM_FUZZ_SELFTEST");

	return v && !strcmp(v, "1");
}

FILE *fuzz_mem(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		fuzz_die("open_memstream", strerror(errno));
	return f;
}

void fuzz_mem_compare(const char *tag, const char *what, const char *a,
		      size_t alen, const char *b, size_t blen)
{
	char *both;
	size_t n;
	FILE *f;

	if (alen == blen && !memcmp(a, b, alen))
		return;
	f = fuzz_mem(&both, &n);
	fprintf(f, "--- first:\n%.*s--- then:\n%.*s---", (int)alen, a,
		(int)blen, b);
	fclose(f);
	fuzz_finding(tag, what, both);
	free(both);
}
