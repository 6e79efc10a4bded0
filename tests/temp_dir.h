/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/temp_dir.h - a test file's private temporary directory: files
 * named in it by in_dir(), all removed by remove_dir() (a checked
 * fixture's teardown).
 *
 * Stage: tests.  Included by one test file each; define TEMP_DIR_PREFIX
 * ("/tmp/futexsim-NAME-") before including it.
 */
#ifndef TESTS_TEMP_DIR_H
#define TESTS_TEMP_DIR_H

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];		/* this test's temporary directory	*/

/* "DIR/NAME" in @buf (DIR: this test's, made on first use). Return: @buf. */
static __attribute__((unused)) const char *in_dir(const char *name,
						  char *buf, size_t len)
{
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%sXXXXXX", TEMP_DIR_PREFIX);
		ck_assert_ptr_nonnull(mkdtemp(dir));
	}
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

/* Teardown: remove the temporary directory and its files. */
static __attribute__((unused)) void remove_dir(void)
{
	char path[384];
	struct dirent *de;
	DIR *d;

	if (!dir[0] || !(d = opendir(dir)))
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(dir);
	dir[0] = '\0';
}

#endif /* TESTS_TEMP_DIR_H */
