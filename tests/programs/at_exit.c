/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/at_exit.c - atexit() and on_exit() handlers run at the
 * simulated process's exit, newest first, with exit()'s status, for
 * tests/test_nptl.c.  The argument says how the program ends: "return"
 * (main returns 3), "exit" (exit(4) from a thread), "_exit" (_exit(5):
 * no handler runs), "pthread_exit" (main calls pthread_exit(); the last
 * thread's end is exit(0)).
 *
 * Stage: tests (a user program).  Each handler prints a line.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *how = "return";

static void first(void)
{
	printf("atexit first\n");
}

static void second(int status, void *arg)
{
	printf("on_exit second status=%d arg=%s\n", status, (const char *)arg);
}

static void third(void)
{
	printf("atexit third\n");
}

static void *thread(void *arg)
{
	if (!strcmp(how, "exit"))
		exit(4);
	if (!strcmp(how, "_exit")) {
		fflush(stdout);
		_exit(5);
	}
	printf("thread done\n");
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th;

	if (argc > 1)
		how = argv[1];
	atexit(first);
	on_exit(second, "two");
	atexit(third);
	pthread_create(&th, NULL, thread, NULL);
	if (!strcmp(how, "pthread_exit"))
		pthread_exit(NULL);
	pthread_join(th, NULL);
	printf("main returns\n");
	return 3;
}
