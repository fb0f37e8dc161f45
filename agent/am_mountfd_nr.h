/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mountfd(2) system call number, for C libraries whose headers do not
 * have it yet.  Shared by the agent and the test programs.
 */
#ifndef AM_MOUNTFD_NR_H
#define AM_MOUNTFD_NR_H

#include <sys/syscall.h>

#ifndef __NR_mountfd
/* The series' number, from its patch to every syscall table (mountfd(2)). */
#if defined(__alpha__)
#define __NR_mountfd	561
#elif defined(__ia64__)
#define __NR_mountfd	(1024 + 451)
#elif defined(__mips__) && _MIPS_SIM == _ABIO32
#define __NR_mountfd	(4000 + 451)
#elif defined(__mips__) && _MIPS_SIM == _ABI64
#define __NR_mountfd	(5000 + 451)
#elif defined(__mips__)
#define __NR_mountfd	(6000 + 451)
#else
#define __NR_mountfd	451
#endif
#endif

#endif /* AM_MOUNTFD_NR_H */
