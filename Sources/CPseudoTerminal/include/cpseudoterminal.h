// Thin shim: glibc declares posix_openpt, grantpt, unlockpt and ptsname_r only with
// _XOPEN_SOURCE/_GNU_SOURCE, which Swift's Glibc module does not set. One wrapper each,
// named after the function it calls.
#ifndef CPSEUDOTERMINAL_H
#define CPSEUDOTERMINAL_H
#include <stddef.h>

/// posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC): a new master, or -1 with errno.
int cpt_posix_openpt(void);
/// grantpt(fd): 0, or -1 with errno.
int cpt_grantpt(int fd);
/// unlockpt(fd): 0, or -1 with errno.
int cpt_unlockpt(int fd);
/// ptsname_r(fd, buffer, length): 0, or an error number.
int cpt_ptsname_r(int fd, char *buffer, size_t length);

#endif
