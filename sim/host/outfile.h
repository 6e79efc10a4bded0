/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/host/outfile.h - the one way futexsim writes an output file: into a
 * temporary file beside it, renamed over the final name only when whole.
 *
 * Stage: host, under the flow.  Called by every writer of an output file:
 * the trace (sim/trace/trace.c), the replay record (sim/replay/replay.c), the
 * JSON report (sim/report/report.c), the lock-stat file and the checks
 * before a run (sim/cli/cli.c), the explore summary
 * (sim/explore/explore_cmd.c).  Calls open(2), write(2), rename(2) and
 * unlink(2).
 *
 * The contract, for a file FILE:
 *
 *  - sim_outfile_open() creates DIR/.BASE.PID.tmp (O_CREAT|O_EXCL, mode
 *    0666 less the umask; ".N" after PID when that name is taken): the
 *    name depends on FILE and the process id only, never on anything
 *    random, and never appears in a result.  FILE itself is not touched.
 *  - Every write and the close are checked: the stream records the errno
 *    of the first write that failed (EFBIG on a file size limit, ENOSPC on
 *    a full disk, EIO when none).
 *  - sim_outfile_commit() renames the temporary over FILE when every write
 *    succeeded, so FILE is the previous file or the whole new one, never
 *    a part.  rename(2) replaces a symbolic link named FILE by the new
 *    file; it does not write through it, and the link's target is left
 *    as it was.  This is the wanted behaviour: an output never modifies a
 *    file it was not named for.
 *  - On any error the temporary is removed and ONE line is printed on
 *    stderr, "futexsim: writing FILE: ERROR", naming the final file; the
 *    caller then makes the process exit non-zero (SIM_EXIT_HOST, or
 *    SIM_EXIT_FAILURE for a failing run, whose status is kept).
 *  - Only the process that opened the file writes, commits or discards
 *    it: a forked child (the CLI runs each lock in one, explore its runs)
 *    that inherits an open outfile leaves it alone (sim_outfile_mine()).
 *    A process that forks flushes its streams first (fflush(NULL)), so a
 *    child's exit writes nothing of the parent's into the temporary.
 *
 *  - FILE that exists and is a device, a pipe or a socket (through any
 *    links: /dev/null, /dev/stdout) is a stream, not a file: it is
 *    opened and written in place, with the same checks and the same
 *    error line, and nothing is renamed.
 *
 * A process killed before the commit leaves the temporary behind and the
 * final name as it was; its parent may remove it
 * (sim_outfile_remove_orphans()).
 */
#ifndef SIM_HOST_OUTFILE_H
#define SIM_HOST_OUTFILE_H

#include <stdio.h>
#include <sys/types.h>

struct sim_outfile {
	FILE *f;		/* the stream to write; NULL: not open	*/
	pid_t owner;		/* the process that opened it		*/
	int err;		/* errno of the first failed write, or 0 */
	int fd;			/* the temporary's descriptor		*/
	char *path;		/* FILE, the final name (malloc'd)	*/
	char *tmp;		/* the temporary's name (malloc'd)	*/
};

/*
 * sim_outfile_open - create the temporary of @path and open @o on it.
 * Return: 0, or -1 with errno set (nothing created, nothing printed: the
 * caller says what the file was for).
 */
int sim_outfile_open(struct sim_outfile *o, const char *path);

/* sim_outfile_mine - @o is open and this process opened it. */
int sim_outfile_mine(const struct sim_outfile *o);

/*
 * sim_outfile_commit - close @o and rename its temporary over its final
 * name.  In a process that did not open it, does nothing and returns 0.
 * Return: 0; or -1 with errno set, after the temporary was removed and
 * the one error line printed (a write, the close or the rename failed).
 * @o is closed either way.
 */
int sim_outfile_commit(struct sim_outfile *o);

/*
 * sim_outfile_discard - close @o and remove its temporary; the final
 * name is left as it was.  In a process that did not open it, only
 * forgets it.
 */
void sim_outfile_discard(struct sim_outfile *o);

/*
 * sim_outfile_write - the whole file @path at once: open, @fill(@f, @arg)
 * writes it (Return: 0, or -1 when it failed with errno set), commit.
 * Return: 0; or -1 with errno set and the one error line printed.
 */
int sim_outfile_write(const char *path, int (*fill)(FILE *f, void *arg),
		      void *arg);

/*
 * sim_outfile_check - could @path be written?  A temporary is created in
 * its directory and removed again; @path itself is not touched, and must
 * not be a directory.  For the checks before a run (bad input is said
 * before a long run, not after it).  Return: 0, or -1 with errno set.
 */
int sim_outfile_check(const char *path);

/*
 * sim_outfile_remove_orphans - process @pid, which wrote @path, died of
 * a signal: remove the temporaries it left (its parent knows the names).
 */
void sim_outfile_remove_orphans(const char *path, pid_t pid);

/*
 * sim_outfile_errors_to - print the error lines on @fd from now on
 * (default: stderr): the CLI's silent re-run, whose stderr is
 * /dev/null, still says that the file it records was not written.
 */
void sim_outfile_errors_to(int fd);

#endif /* SIM_HOST_OUTFILE_H */
