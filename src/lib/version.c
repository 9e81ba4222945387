/* SPDX-License-Identifier: MIT */
/* version.c - the library's version string, from the build. */
#include "perfkit.h"
#include "pk_config.h"

const char *pk_version(void)
{
	return PK_VERSION;
}
