/* SPDX-License-Identifier: MIT */
/*
 * perfkit/record.h - decoding the records the kernel writes into ring
 * buffers (and perf.data files hold): included by perfkit.h.
 * (Being written: see src/lib/record/.)
 */
#ifndef PERFKIT_RECORD_H
#define PERFKIT_RECORD_H
#endif
