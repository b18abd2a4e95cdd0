// SPDX-License-Identifier: Apache-2.0
/* Whole-buffer file I/O shared by the parts of libtt that write files. */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "internal.h"

int tt_write_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
