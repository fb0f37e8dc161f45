// SPDX-License-Identifier: GPL-2.0
/*
 * Server ranking of the NFS module: weight first, then reply time, dead
 * servers last; and the RPC NULL ping's verdict on a refused port and on a
 * port that accepts but never answers (both real sockets on loopback).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "nfs_addr.h"
#include "nfs_ping.h"
#include "check.h"


static void test_sort(void)
{
	struct nfs_server s[5];
	static const struct { unsigned int w; long rtt; } in[5] = {
		{ 5, 100 }, { 1, 900 }, { 1, 200 }, { 0, -1 }, { 1, 200 },
	};
	static const unsigned int want[5] = { 2, 4, 1, 0, 3 };
	size_t i, live;

	memset(s, 0, sizeof(s));
	for (i = 0; i < 5; i++) {
		s[i].ns_weight = in[i].w;
		s[i].ns_rtt_us = in[i].rtt;
		s[i].ns_order = i;
	}
	live = nfs_servers_sort(s, 5);
	CHECK(live == 4, "live %zu, want 4", live);
	for (i = 0; i < 5; i++)
		CHECK(s[i].ns_order == want[i], "position %zu holds server %u, want %u",
		      i, s[i].ns_order, want[i]);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* A loopback port: listening (accepts, never answers) or closed. */
static int loopback_port(struct sockaddr_in *sin, bool listening)
{
	socklen_t len = sizeof(*sin);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)sin, sizeof(*sin)) ||
	    getsockname(fd, (struct sockaddr *)sin, &len) ||
	    (listening && listen(fd, 4)))
		return -1;
	if (!listening) {
		close(fd);
		return -2;
	}
	return fd;
}

static void test_ping(void)
{
	struct nfs_ping p[2];
	struct sockaddr_in silent, closed;
	int lfd = loopback_port(&silent, true);
	long t0, rtt;
	int live;

	CHECK(lfd >= 0, "listening socket");
	loopback_port(&closed, false);
	rtt = nfs_ping_one((struct sockaddr *)&closed, sizeof(closed), 3, 1000);
	CHECK(rtt == -ECONNREFUSED, "closed port: %ld, want -ECONNREFUSED", rtt);

	t0 = now_ms();
	rtt = nfs_ping_one((struct sockaddr *)&silent, sizeof(silent), 3, 300);
	t0 = now_ms() - t0;
	CHECK(rtt == -ETIMEDOUT, "silent port: %ld, want -ETIMEDOUT", rtt);
	CHECK(t0 >= 250 && t0 < 1000, "silent port took %ld ms for a 300 ms bound", t0);

	memset(p, 0, sizeof(p));
	memcpy(&p[0].np_addr, &silent, sizeof(silent));
	p[0].np_addrlen = sizeof(silent);
	memcpy(&p[1].np_addr, &closed, sizeof(closed));
	p[1].np_addrlen = sizeof(closed);
	p[0].np_vers = p[1].np_vers = 4;
	t0 = now_ms();
	live = nfs_ping_all(p, 2, 300);
	t0 = now_ms() - t0;
	CHECK(live == 0, "live %d, want 0", live);
	CHECK(p[0].np_rtt_us < 0 && p[0].np_err == -ETIMEDOUT, "silent: err %d", p[0].np_err);
	CHECK(p[1].np_rtt_us < 0 && p[1].np_err == -ECONNREFUSED, "closed: err %d", p[1].np_err);
	CHECK(t0 < 1000, "ping_all took %ld ms for a 300 ms bound", t0);
	close(lfd);
}

static void test_local(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	sin.sin_addr.s_addr = htonl(0x7f000002);
	CHECK(nfs_addr_is_local((struct sockaddr *)&sin), "127.0.0.2 is local");
	sin.sin_addr.s_addr = htonl(0xc0000201);	/* 192.0.2.1, TEST-NET-1 */
	CHECK(!nfs_addr_is_local((struct sockaddr *)&sin), "192.0.2.1 is not local");
}

int main(void)
{
	test_sort();
	test_ping();
	test_local();
	if (check_failures)
		printf("%d failure(s)\n", check_failures);
	else
		printf("nfs_rank: all passed\n");
	return check_failures ? 1 : 0;
}
