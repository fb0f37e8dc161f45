// SPDX-License-Identifier: GPL-2.0
/*
 * floor: the least an agent of this design can do, for the bench row
 * floor-bind.  bench.sh sets it as fs.autofsng.agent for one trigger; the
 * kernel runs it as it runs /sbin/autofs, and it bind-mounts FLOOR_SRC onto
 * MOUNTFD and exits: the helper call, the exec of a static program and the
 * attach, with no configuration, map, parsing, module or expiry.  The
 * requester's mount namespace is joined as the agent joins it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#define FLOOR_SRC "/srv/bind"

static int env_fd(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : -1;
}

int main(void)
{
	int mountfd = env_fd("MOUNTFD"), nsfd = env_fd("MNTNSFD"), tree;

	tree = open_tree(AT_FDCWD, FLOOR_SRC, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tree < 0 || mountfd < 0)
		return 1;
	if (nsfd >= 0 && setns(nsfd, CLONE_NEWNS))
		return 1;
	return move_mount(tree, "", mountfd, "", MOVE_MOUNT_F_EMPTY_PATH |
			  MOVE_MOUNT_T_EMPTY_PATH) ? 1 : 0;
}
