/* SPDX-License-Identifier: MIT */
/*
 * Helper threads kept quiet across fork() (kfdtrace/fork_quiet.h). The
 * prepare handler counts a fork in progress and waits until no registered
 * helper is busy; a helper that wants to become busy meanwhile waits
 * until the parent's handler has counted the fork out.
 */
#include <pthread.h>

#include "kfdtrace/fork_quiet.h"

static pthread_mutex_t quiet_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t quiet_cond = PTHREAD_COND_INITIALIZER;
static pthread_once_t quiet_once = PTHREAD_ONCE_INIT;
static struct kt_quiet *quiet_list;
static int quiet_forks;		/* fork() calls between prepare and parent */

static int
quiet_any_busy(void)
{
	const struct kt_quiet *q;

	for (q = quiet_list; q; q = q->next)
		if (q->busy)
			return 1;
	return 0;
}

static void
quiet_prepare(void)
{
	pthread_mutex_lock(&quiet_lock);
	quiet_forks++;
	while (quiet_any_busy())
		pthread_cond_wait(&quiet_cond, &quiet_lock);
	pthread_mutex_unlock(&quiet_lock);
}

static void
quiet_parent(void)
{
	pthread_mutex_lock(&quiet_lock);
	quiet_forks--;
	pthread_cond_broadcast(&quiet_cond);
	pthread_mutex_unlock(&quiet_lock);
}

/*
 * The child has none of the helpers (and no other fork under way): the
 * list starts empty, the lock and the condition afresh.
 */
static void
quiet_child(void)
{
	quiet_list = NULL;
	quiet_forks = 0;
	pthread_mutex_init(&quiet_lock, NULL);
	pthread_cond_init(&quiet_cond, NULL);
}

void
kt_quiet_new_process(void)
{
	quiet_child();
}

static void
quiet_install(void)
{
	pthread_atfork(quiet_prepare, quiet_parent, quiet_child);
}

void
kt_quiet_register(struct kt_quiet *q)
{
	pthread_once(&quiet_once, quiet_install);
	pthread_mutex_lock(&quiet_lock);
	q->busy = 1;
	q->next = quiet_list;
	quiet_list = q;
	pthread_mutex_unlock(&quiet_lock);
}

void
kt_quiet_unregister(struct kt_quiet *q)
{
	struct kt_quiet **p;

	pthread_mutex_lock(&quiet_lock);
	for (p = &quiet_list; *p; p = &(*p)->next)
		if (*p == q) {
			*p = q->next;
			pthread_cond_broadcast(&quiet_cond);
			break;
		}
	pthread_mutex_unlock(&quiet_lock);
}

void
kt_quiet_busy(struct kt_quiet *q)
{
	pthread_mutex_lock(&quiet_lock);
	while (quiet_forks)
		pthread_cond_wait(&quiet_cond, &quiet_lock);
	q->busy = 1;
	pthread_mutex_unlock(&quiet_lock);
}

void
kt_quiet_idle(struct kt_quiet *q)
{
	pthread_mutex_lock(&quiet_lock);
	q->busy = 0;
	if (quiet_forks)
		pthread_cond_broadcast(&quiet_cond);
	pthread_mutex_unlock(&quiet_lock);
}
