#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include "cpseudoterminal.h"

int cpt_posix_openpt(void) { return posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC); }
int cpt_grantpt(int fd) { return grantpt(fd); }
int cpt_unlockpt(int fd) { return unlockpt(fd); }
int cpt_ptsname_r(int fd, char *buffer, size_t length) { return ptsname_r(fd, buffer, length); }
