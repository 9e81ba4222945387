/* SPDX-License-Identifier: MIT */
/*
 * script-kpath.c - perf script's --show-kernel-path: where perf 6.1's
 * map__fprintf_dsoname (and its dlfilter's al->dso) print a DSO's long
 * name instead of its name.  The long name differs for the kernel's
 * objects alone: a module's file as its MMAP record names it
 * (/lib/modules/RELEASE/kernel/.../foo.ko where perfkit otherwise prints
 * [foo]), and the vmlinux the kernel's symbols came from; from kallsyms
 * the kernel stays [kernel.kallsyms].  A user DSO's name is its path.
 */
#include "script.h"

/* --show-kernel-path: perf's symbol_conf.show_kernel_path, for the one command */
static bool show_kernel_path;

void script_show_kernel_path(bool on)
{
	show_kernel_path = on;
}

const char *script_dso_name(const struct pk_dso *d)
{
	if (!d)
		return "[unknown]";
	return show_kernel_path && d->long_name ? d->long_name : d->name;
}
