// SPDX-License-Identifier: GPL-2.0
/*
 * mountd-hostile: a real MOUNT protocol (100005) version 3 server that
 * plays a server under an attacker's control for the -hosts map tests.  It
 * answers EXPORT with whatever names it is given, byte for byte, and NULL;
 * every other procedure is refused.
 *
 *   mountd-hostile FILE [ADDRESS]
 *
 * FILE holds the export names, each ended by a NUL byte (so a name may hold
 * any other byte, newlines included).  The server listens on TCP at ADDRESS
 * (default 127.0.0.1), any free port, registers with the rpcbind running
 * there, prints "ready PORT" and serves until SIGTERM or SIGINT.  A MOUNT
 * version 3 service already registered for TCP (a guest's rpc.mountd) is
 * put back when it stops.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <rpc/rpc.h>

#define MOUNT_PROGRAM	100005
#define MOUNT_V3	3
#define MOUNTPROC_NULL	0
#define MOUNTPROC_EXPORT 5
/* far above MNTPATHLEN: the client must cope with what a liar sends */
#define NAME_MAX_WIRE	65536

static char **names;
static size_t nnames;
static volatile sig_atomic_t stop;

static int names_load(const char *path)
{
	static char buf[16 << 20];
	FILE *f = fopen(path, "rb");
	size_t len, i;

	if (!f)
		return -errno;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	names = calloc(len + 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	for (i = 0; i < len; i += strlen(buf + i) + 1)
		names[nnames++] = buf + i;
	return 0;
}

/* exports: entries of (name, empty groups list), then FALSE. */
static bool_t xdr_exports(XDR *x, void *arg)
{
	bool_t more = TRUE, none = FALSE;
	size_t i;

	(void)arg;
	for (i = 0; i < nnames; i++) {
		if (!xdr_bool(x, &more) || !xdr_string(x, &names[i], NAME_MAX_WIRE) ||
		    !xdr_bool(x, &none))
			return FALSE;
	}
	return xdr_bool(x, &none);
}

static void dispatch(struct svc_req *rq, SVCXPRT *xprt)
{
	switch (rq->rq_proc) {
	case MOUNTPROC_NULL:
		svc_sendreply(xprt, (xdrproc_t)(void (*)(void))xdr_void, NULL);
		break;
	case MOUNTPROC_EXPORT:
		svc_sendreply(xprt, (xdrproc_t)(void (*)(void))xdr_exports, NULL);
		break;
	default:
		svcerr_noproc(xprt);
	}
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* A TCP socket listening on ADDR, any port.  Returns: fd or -1. */
static int listen_on(const char *addr, unsigned short *port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || inet_pton(AF_INET, addr, &sin.sin_addr) != 1 ||
	    bind(fd, (struct sockaddr *)&sin, sizeof(sin)) || listen(fd, 64) ||
	    getsockname(fd, (struct sockaddr *)&sin, &len))
		return -1;
	*port = ntohs(sin.sin_port);
	return fd;
}

static void serve(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	fd_set fds;

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	while (!stop) {
		fds = svc_fdset;
		if (select(FD_SETSIZE, &fds, NULL, NULL, NULL) > 0)
			svc_getreqset(&fds);
	}
}

int main(int argc, char **argv)
{
	char saved_addr[128];
	struct netbuf saved = { sizeof(saved_addr), 0, saved_addr };
	struct netconfig *nc;
	unsigned short port;
	bool_t had = FALSE;
	SVCXPRT *xprt;
	int fd, err;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: mountd-hostile FILE [ADDRESS]\n");
		return 2;
	}
	err = names_load(argv[1]);
	if (err) {
		fprintf(stderr, "mountd-hostile: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	fd = listen_on(argc == 3 ? argv[2] : "127.0.0.1", &port);
	nc = getnetconfigent("tcp");
	xprt = fd < 0 || !nc ? NULL : svc_vc_create(fd, 0, 0);
	if (nc)
		had = rpcb_getaddr(MOUNT_PROGRAM, MOUNT_V3, nc, &saved, "127.0.0.1");
	rpcb_unset(MOUNT_PROGRAM, MOUNT_V3, nc);
	if (!xprt || !svc_reg(xprt, MOUNT_PROGRAM, MOUNT_V3, dispatch, nc)) {
		fprintf(stderr, "mountd-hostile: cannot listen or register with rpcbind\n");
		return 1;
	}
	printf("ready %u\n", port);
	fflush(stdout);
	serve();
	svc_unreg(MOUNT_PROGRAM, MOUNT_V3);
	if (had && !rpcb_set(MOUNT_PROGRAM, MOUNT_V3, nc, &saved))
		fprintf(stderr, "mountd-hostile: could not give MOUNT v3 back\n");
	freenetconfigent(nc);
	return 0;
}
