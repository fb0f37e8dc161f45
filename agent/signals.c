// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's signals.  SIGTERM, SIGALRM (the agent's own time limit) and
 * SIGINT end it whatever it is doing, except while a lookup attaches what
 * it built (am_signals_hold()): there an exit would leave half a tree, or
 * a mount without its expiry.
 */
#include <signal.h>
#include <unistd.h>

#include "am_util.h"

/* Only async-signal-safe calls here, no locks, no stdio. */
static void on_fatal_signal(int sig)
{
	static const char term[] = "autofs: terminated by SIGTERM\n";
	static const char alrm[] = "autofs: time limit reached, giving up\n";
	ssize_t n;

	if (sig == SIGALRM)
		n = write(STDERR_FILENO, alrm, sizeof(alrm) - 1);
	else
		n = write(STDERR_FILENO, term, sizeof(term) - 1);
	(void)n;
	_exit(AM_EXIT_INTERNAL);
}

static void fatal_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGALRM);
	sigaddset(set, SIGINT);
}

void am_signals_setup(void)
{
	struct sigaction sa = { .sa_handler = on_fatal_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

void am_signals_hold(void)
{
	sigset_t set;

	fatal_set(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
}
