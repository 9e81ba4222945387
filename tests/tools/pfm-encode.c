/* SPDX-License-Identifier: MIT */
/*
 * pfm-encode.c - print libpfm4's perf_event encoding of each argument, for
 * gen-vectors.sh to cross-check the hand-written libpfm4 vectors (which come
 * from the Intel SDM / AMD PPR event codes) against the libpfm4 installed.
 * It uses PFM_OS_PERF_EVENT_EXT with dfl_plm = PFM_PLM0|PFM_PLM3, the same
 * default perf's --pfm-events uses.  Not part of perfkit.
 */
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int i, ret;

	ret = pfm_initialize();
	if (ret != PFM_SUCCESS) {
		fprintf(stderr, "pfm_initialize: %s\n", pfm_strerror(ret));
		return 1;
	}
	for (i = 1; i < argc; i++) {
		struct perf_event_attr attr;
		pfm_perf_encode_arg_t arg;

		memset(&attr, 0, sizeof(attr));
		memset(&arg, 0, sizeof(arg));
		attr.size = sizeof(attr);
		arg.attr = &attr;
		arg.size = sizeof(arg);
		ret = pfm_get_os_event_encoding(argv[i], PFM_PLM0 | PFM_PLM3,
						PFM_OS_PERF_EVENT_EXT, &arg);
		if (ret != PFM_SUCCESS) {
			printf("%s\tERROR %s\n", argv[i], pfm_strerror(ret));
			continue;
		}
		printf("%s\ttype=%u config=0x%llx config1=0x%llx eu=%d ek=%d eh=%d eG=%d eH=%d "
		       "precise=%d pinned=%d excl=%d period=%llu freq=%d\n", argv[i], attr.type,
		       (unsigned long long)attr.config, (unsigned long long)attr.config1,
		       attr.exclude_user, attr.exclude_kernel, attr.exclude_hv,
		       attr.exclude_guest, attr.exclude_host, attr.precise_ip, attr.pinned,
		       attr.exclusive, (unsigned long long)attr.sample_period, attr.freq);
	}
	return 0;
}
