/* SPDX-License-Identifier: MIT */
/*
 * perfkit.h - the public API of libperfkit, one header per object under
 * perfkit/; this one includes them all.
 *
 * libperfkit turns perf_event_open(2) into a library: event strings in perf's
 * grammar become struct perf_event_attr, PMUs described in sysfs are
 * discovered, every event the machine offers can be enumerated with the
 * attributes that refine it, events are counted and sampled, records are
 * decoded and written to perf.data files perf reads, and every failure of
 * the kernel interface comes back as a negative errno plus a human
 * explanation (pk_last_error()).
 *
 * Conventions, everywhere (docs/DESIGN.md, "Public API conventions"):
 *  - Names are pk_<noun>_<verb>; types struct pk_<noun>; enums
 *    PK_<NOUN>_<VALUE>.
 *  - Fallible functions return int: >= 0 on success, a negative errno on
 *    failure.  Constructors return their object through an out-parameter,
 *    which is left untouched on failure.
 *  - After a failure, pk_last_error() describes it for people: what was
 *    attempted, why it failed, and how to fix it.  The record is per thread.
 *  - A set of one kind of thing has pk_<set>_nr(set) and
 *    pk_<set>_get(set, idx) (or a named view of the idx-th element); an
 *    object with children of several kinds has pk_<obj>_nr_<things>(obj)
 *    and pk_<obj>_<thing>(obj, idx).
 *  - Objects are opaque and freed with their pk_<noun>_free(), which accepts
 *    NULL.  Pointers returned by accessors stay valid until the owning object
 *    is freed.  Structs the caller allocates start with `size_t size`, set to
 *    sizeof by the caller, so the ABI can grow; no public struct's layout
 *    depends on the caller's kernel headers.
 *  - The library never prints, never exits, and reads the environment only
 *    for PERFKIT_SYSFS_ROOT (a directory standing in for /sys, for tests and
 *    for describing other machines).
 */
#ifndef PERFKIT_H
#define PERFKIT_H

#include "perfkit/error.h"
#include "perfkit/num.h"
#include "perfkit/pmu.h"
#include "perfkit/event.h"
#include "perfkit/catalog.h"
#include "perfkit/count.h"
#include "perfkit/host.h"
#include "perfkit/evlist.h"
#include "perfkit/ring.h"
#include "perfkit/metric.h"
#include "perfkit/workload.h"
#include "perfkit/tracefs.h"
#include "perfkit/record.h"
#include "perfkit/data.h"
#include "perfkit/reader.h"
#include "perfkit/features.h"
#include "perfkit/symbols.h"
#include "perfkit/unwind.h"
#include "perfkit/resolve.h"
#include "perfkit/recorder.h"
#include "perfkit/selfmon.h"
#include "perfkit/overflow.h"
#include "perfkit/sigtrap.h"
#include "perfkit/watch.h"
#include "perfkit/hist.h"
#include "perfkit/diff.h"
#include "perfkit/callchain.h"
#include "perfkit/export.h"
#include "perfkit/offcpu.h"
#include "perfkit/health.h"

#endif /* PERFKIT_H */
