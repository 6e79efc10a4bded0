/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/host/outfile.c - output files written whole or not at all: a
 * temporary beside the final name, every write checked, rename(2) at the
 * end.  The contract is in sim/host/outfile.h.
 *
 * Stage: host, under the flow.  Called by the writers of every output
 * file (trace, replay record, JSON report, lock-stat, explore summary)
 * and by the CLI's checks before a run; calls open(2), write(2),
 * rename(2), unlink(2) and glibc's fopencookie(), whose write callback
 * is where the errno of a failed write is caught (stdio keeps only a
 * flag).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/host/outfile.h"

#define TMP_TRIES	100	/* names tried when one is taken	*/

static int err_fd = STDERR_FILENO;

void sim_outfile_errors_to(int fd)
{
	err_fd = fd;
}

/* The one error line: "futexsim: writing FILE: ERROR". */
static void say(const char *path, int err)
{
	char line[4096 + 128];
	int n = snprintf(line, sizeof(line), "futexsim: writing %s: %s\n",
			 path, strerror(err));

	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	fflush(stderr);
	if (write(err_fd, line, (size_t)n) < 0)
		return;		/* nowhere left to say it */
}

/* ---- the stream ------------------------------------------------------------ */

static ssize_t cookie_write(void *cookie, const char *buf, size_t size)
{
	struct sim_outfile *o = cookie;
	size_t done = 0;
	ssize_t n;

	if (o->err)
		return 0;
	while (done < size) {
		n = write(o->fd, buf + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->err = n < 0 && errno ? errno : EIO;
			break;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;	/* short: stdio sets its error flag */
}

static int cookie_close(void *cookie)
{
	struct sim_outfile *o = cookie;
	int fd = o->fd;

	o->fd = -1;
	if (close(fd) && !o->err)
		o->err = errno ? errno : EIO;
	return o->err ? -1 : 0;
}

/* ---- names ----------------------------------------------------------------- */

/* DIR/.BASE.PID.tmp, or DIR/.BASE.PID.N.tmp for @try > 0. */
static char *tmp_name_of(const char *path, pid_t pid, int try)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dir = (int)(base - path), n;
	char *buf;

	n = try ? snprintf(NULL, 0, "%.*s.%s.%d.%d.tmp", dir, path, base,
			   (int)pid, try)
		: snprintf(NULL, 0, "%.*s.%s.%d.tmp", dir, path, base,
			   (int)pid);
	buf = n < 0 ? NULL : malloc((size_t)n + 1);
	if (!buf)
		return NULL;
	if (try)
		snprintf(buf, (size_t)n + 1, "%.*s.%s.%d.%d.tmp", dir, path,
			 base, (int)pid, try);
	else
		snprintf(buf, (size_t)n + 1, "%.*s.%s.%d.tmp", dir, path, base,
			 (int)pid);
	return buf;
}

/* @path names an existing device, pipe or socket (through any links):
 * a stream, written in place. */
static int is_stream(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

static char *tmp_name(const char *path, int try)
{
	return tmp_name_of(path, getpid(), try);
}

/* Create the temporary of @path: its descriptor, its name in *@name. */
static int tmp_create(const char *path, char **name)
{
	struct stat st;
	int fd = -1;

	*name = NULL;
	if (!*path || path[strlen(path) - 1] == '/' ||
	    (!stat(path, &st) && S_ISDIR(st.st_mode))) {
		errno = EISDIR;
		return -1;
	}
	for (int try = 0; try < TMP_TRIES && fd < 0; try++) {
		*name = tmp_name(path, try);
		if (!*name) {
			errno = ENOMEM;
			return -1;
		}
		fd = open(*name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0) {
			free(*name);
			*name = NULL;
			if (errno != EEXIST)
				return -1;
		}
	}
	return fd;
}

/* ---- the contract ---------------------------------------------------------- */

static void forget(struct sim_outfile *o)
{
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

int sim_outfile_open(struct sim_outfile *o, const char *path)
{
	static const cookie_io_functions_t io = {
		.write = cookie_write, .close = cookie_close,
	};
	int err;

	memset(o, 0, sizeof(*o));
	if (is_stream(path))
		o->fd = open(path, O_WRONLY | O_CLOEXEC);
	else
		o->fd = tmp_create(path, &o->tmp);
	if (o->fd < 0)
		goto fail;
	o->path = strdup(path);
	o->f = o->path ? fopencookie(o, "w", io) : NULL;
	if (!o->f) {
		err = errno ? errno : ENOMEM;
		close(o->fd);
		if (o->tmp)
			unlink(o->tmp);
		errno = err;
		goto fail;
	}
	o->owner = getpid();
	return 0;
fail:
	err = errno;
	forget(o);
	errno = err;
	return -1;
}

int sim_outfile_mine(const struct sim_outfile *o)
{
	return o->f && o->owner == getpid();
}

int sim_outfile_commit(struct sim_outfile *o)
{
	int bad, err;

	if (!o->f)
		return 0;
	if (o->owner != getpid()) {
		forget(o);	/* the parent's: it commits it */
		return 0;
	}
	bad = ferror(o->f);
	if (fclose(o->f) || bad) {
		if (!o->err)
			o->err = EIO;
	} else if (o->tmp && rename(o->tmp, o->path)) {
		o->err = errno;
	}
	if (o->err) {
		err = o->err;
		if (o->tmp)
			unlink(o->tmp);
		say(o->path, err);
		forget(o);
		errno = err;
		return -1;
	}
	forget(o);
	return 0;
}

void sim_outfile_discard(struct sim_outfile *o)
{
	if (o->f && o->owner == getpid()) {
		o->err = o->err ? o->err : ECANCELED;	/* nothing more is written */
		fclose(o->f);
		if (o->tmp)
			unlink(o->tmp);
	}
	forget(o);
}

int sim_outfile_write(const char *path, int (*fill)(FILE *f, void *arg),
		      void *arg)
{
	struct sim_outfile o;
	int err;

	if (sim_outfile_open(&o, path)) {
		err = errno;
		say(path, err);
		errno = err;
		return -1;
	}
	errno = 0;
	if (fill(o.f, arg) && !o.err)
		o.err = errno ? errno : EIO;
	return sim_outfile_commit(&o);
}

int sim_outfile_check(const char *path)
{
	char *name = NULL;
	int fd, err;

	if (is_stream(path))
		return access(path, W_OK);
	fd = tmp_create(path, &name);
	if (fd < 0)
		return -1;
	err = close(fd) ? errno : 0;
	unlink(name);
	free(name);
	errno = err;
	return err ? -1 : 0;
}

void sim_outfile_remove_orphans(const char *path, pid_t pid)
{
	for (int try = 0; try < TMP_TRIES; try++) {
		char *name = tmp_name_of(path, pid, try);
		int gone = !name || unlink(name);

		free(name);
		if (gone)
			break;
	}
}
