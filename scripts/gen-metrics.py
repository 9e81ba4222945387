#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gen-metrics.py - writes src/lib/analysis/metrics.def from perf 6.1's
metric JSON for the models perfkit covers (amdzen3, skylake, icelake).

Run by hand (the build never runs it: CI has no kernel source):

    scripts/gen-metrics.py [PERF_X86_ARCH_DIR] > src/lib/analysis/metrics.def

PERF_X86_ARCH_DIR defaults to the Debian kernel source's
tools/perf/pmu-events/arch/x86.  Each of perf's event names becomes the
libpfm4 name (perfkit's event vocabulary) with the same encoding: the
generator asks the installed libpfm4 (through ctypes, with
LIBPFM_FORCE_PMU set to the model's PMU) for the encoding of every
EVENT:UMASK it knows and picks the one equal to perf's JSON encoding
(event, umask, cmask, inv, edge, any, and the frontend/ldlat MSR value),
adding libpfm4's c=, i=, e=, t= modifiers where perf's name carries its
own terms.  When libpfm4 knows the event code but no umask or OR of its
umasks gives perf's unit mask, the event is written as perf's encoding on
the core PMU (cpu@event=..,umask=..@).  perf's metric references
(SLOTS, CORE_CLKS, tma_* ...) are written out in parentheses; a metric
whose events libpfm4 cannot name, or which needs a PMU perfkit's table
does not cover (uncore, cstate, msr, offcore response), is left out, with
a generated comment giving the reason.
"""
import ctypes
import glob
import json
import os
import re
import subprocess
import sys

ARCH = sys.argv[1] if len(sys.argv) > 1 else \
    '/work/kernel-src/linux-source-6.1/tools/perf/pmu-events/arch/x86'
MODELS = [  # (perf dir, cpuid macro, cpuid regex, libpfm4 PMU, vendor)
    ('amdzen3', 'PK__AMD_ZEN3', 'AuthenticAMD-25-[[:xdigit:]]+', 'amd64_fam19h_zen3', 'amd'),
    ('skylake', 'PK__INTEL_SKL', 'GenuineIntel-6-(4E|5E|8E|9E|A5|A6)', 'skl', 'intel'),
    ('icelake', 'PK__INTEL_ICL', 'GenuineIntel-6-(7D|7E|A7)', 'icl', 'intel'),
]
# Events perf names that are no core PMU event: kept as they are.
SYSFS_EVENTS = {'duration_time'}


def libpfm_index(pmu):
    """{name: encoding tuple} for every EVENT and EVENT:UMASK of pmu, asked of
    libpfm4 in a child with LIBPFM_FORCE_PMU set (libpfm4 reads it once)."""
    env = dict(os.environ, LIBPFM_FORCE_PMU=pmu)
    out = subprocess.run([sys.executable, __file__, '--enumerate', pmu], env=env,
                         check=True, capture_output=True, text=True).stdout
    idx = {}
    for line in out.splitlines():
        name, *codes = line.split()
        idx[name] = tuple(int(c, 16) for c in codes)
    return idx


class _Arg(ctypes.Structure):
    _fields_ = [('codes', ctypes.POINTER(ctypes.c_uint64)), ('fstr', ctypes.c_void_p),
                ('size', ctypes.c_size_t), ('count', ctypes.c_int), ('idx', ctypes.c_int)]


class _Pmu(ctypes.Structure):
    _fields_ = [('name', ctypes.c_char_p), ('desc', ctypes.c_char_p), ('size', ctypes.c_size_t),
                ('pmu', ctypes.c_int), ('type', ctypes.c_int), ('nevents', ctypes.c_int),
                ('first_event', ctypes.c_int), ('max_encoding', ctypes.c_int),
                ('num_cntrs', ctypes.c_int), ('num_fixed', ctypes.c_int), ('flags', ctypes.c_uint)]


class _Event(ctypes.Structure):
    _fields_ = [('name', ctypes.c_char_p), ('desc', ctypes.c_char_p), ('equiv', ctypes.c_char_p),
                ('size', ctypes.c_size_t), ('code', ctypes.c_uint64), ('pmu', ctypes.c_int),
                ('dtype', ctypes.c_int), ('idx', ctypes.c_int), ('nattrs', ctypes.c_int),
                ('reserved', ctypes.c_int), ('flags', ctypes.c_uint)]


class _Attr(ctypes.Structure):
    _fields_ = [('name', ctypes.c_char_p), ('desc', ctypes.c_char_p), ('equiv', ctypes.c_char_p),
                ('size', ctypes.c_size_t), ('code', ctypes.c_uint64), ('type', ctypes.c_int),
                ('idx', ctypes.c_int), ('ctrl', ctypes.c_int), ('flags', ctypes.c_uint),
                ('dfl', ctypes.c_uint64)]


def _lib():
    lib = ctypes.CDLL('libpfm.so.4')
    assert lib.pfm_initialize() == 0
    return lib


def encode(lib, name):
    a = _Arg()
    a.size = ctypes.sizeof(_Arg)
    # PFM_PLM0 | PFM_PLM3, PFM_OS_NONE: the raw codes.
    if lib.pfm_get_os_event_encoding(name.encode(), 0x9, 0, ctypes.byref(a)) != 0:
        return None
    return tuple(a.codes[i] for i in range(a.count))


def enumerate_pmu(pmu):
    lib = _lib()
    for p in range(1024):
        pi = _Pmu(size=ctypes.sizeof(_Pmu))
        if lib.pfm_get_pmu_info(p, ctypes.byref(pi)) == 0 and pi.name.decode() == pmu:
            break
    else:
        sys.exit('libpfm4 has no PMU ' + pmu)
    idx, umasks = pi.first_event, {}
    while idx != -1:
        ev = _Event(size=ctypes.sizeof(_Event))
        assert lib.pfm_get_event_info(idx, 0, ctypes.byref(ev)) == 0
        names = [ev.name.decode()]
        for a in range(ev.nattrs):
            at = _Attr(size=ctypes.sizeof(_Attr))
            if lib.pfm_get_event_attr_info(idx, a, 0, ctypes.byref(at)) == 0 and at.type == 1:
                names.append(names[0] + ':' + at.name.decode())
        umasks[names[0]] = [n.split(':', 1)[1] for n in names[1:]]
        if ev.equiv:  # an alias (CPU_CLK_UNHALTED): its target's unit masks
            names += [names[0] + ':' + u for u in umasks.get(ev.equiv.decode().split(':')[0], [])]
        for n in names:
            c = encode(lib, n)
            if c:
                print(n, *('%x' % x for x in c))
        idx = lib.pfm_get_event_next(idx)


def fields(codes, vendor):
    """(event, umask, cmask, inv, edge, any, msr) of a libpfm4 encoding."""
    c = codes[0]
    ev = c & 0xff
    if vendor == 'amd':
        ev |= ((c >> 32) & 0xf) << 8
    return (ev, (c >> 8) & 0xff, (c >> 24) & 0xff, (c >> 23) & 1, (c >> 18) & 1,
            (c >> 21) & 1 if vendor == 'intel' else 0, codes[1] if len(codes) > 1 else 0)


# perf's encodings for the Intel fixed-counter events its JSON gives no
# event code (jevents.py): the programmable counters' equivalents.
FIXED = {
    'inst_retired.any': (0xc0, 0, 0, 0, 0, 0, 0),
    'cpu_clk_unhalted.thread': (0x3c, 0, 0, 0, 0, 0, 0),
    'cpu_clk_unhalted.thread_any': (0x3c, 0, 0, 0, 0, 1, 0),
}


def json_fields(e):
    """The same tuple from one of perf's JSON events, or None."""
    code = e.get('EventCode', '0x0')
    if ',' in code:
        return None
    name = e['EventName'].lower()
    if name in FIXED:  # the fixed counters' events, as perf encodes them
        return FIXED[name]
    def num(k):
        return int(e.get(k, '0') or '0', 0)
    msr = int(e['MSRValue'], 0) if e.get('MSRIndex') and e.get('MSRIndex') != '0' else 0
    return (int(code, 0), num('UMask'), num('CounterMask'), num('Invert'), num('EdgeDetect'),
            num('AnyThread'), msr)


class Model:
    def __init__(self, perfdir, pmu, vendor):
        self.vendor = vendor
        self.pmu = pmu
        self.events = {}
        self.metrics = []
        for f in sorted(glob.glob(os.path.join(ARCH, perfdir, '*.json'))):
            for e in json.load(open(f)):
                if 'MetricExpr' in e:
                    self.metrics.append(e)
                elif 'EventName' in e:
                    self.events[e['EventName'].upper()] = e
        self.by_fields = {}
        self.by_code = {}
        self.index = libpfm_index(pmu)
        for name, codes in self.index.items():
            f = fields(codes, vendor)
            # A name with a unit mask (perf's EVENT.UMASK shape) before a
            # bare one (libpfm4's architected INSTRUCTION_RETIRED...);
            # otherwise libpfm4's own order.
            self.by_fields.setdefault(f, []).append(name)
            if ':' in name:
                self.by_code.setdefault(f[0], []).append((name, f))

    def name_for(self, want, perf_name):
        """libpfm4's name for the encoding want, or None: perf's own name
        (EVENT:UMASK) when libpfm4 encodes it the same, else another."""
        same = perf_name.upper().replace('.', ':', 1).replace('.', '_')
        if same in self.index and fields(self.index[same], self.vendor) == want:
            return same
        if want in self.by_fields:
            return self.pick(self.by_fields[want], perf_name)
        ev, umask, cmask, inv, edge, anyt, msr = want
        base = self.by_fields.get((ev, umask, 0, 0, 0, 0, msr))
        base = base and self.pick(base, perf_name)
        if base is None:
            base = self.umask_or(ev, umask, msr)
        if base is None:
            return None
        mods = ''
        if cmask:
            mods += ':c=%d' % cmask
        if inv:
            mods += ':i'
        if edge:
            mods += ':e'
        if anyt:
            mods += ':t'
        return base + mods

    @staticmethod
    def pick(names, perf_name):
        """Of libpfm4's names for one encoding: one with perf's event name
        (CPU_CLK_UNHALTED, not its alias CPU_CLK_THREAD_UNHALTED), else one
        with a unit mask (not the architected INSTRUCTION_RETIRED), else
        libpfm4's first."""
        event = perf_name.split('.')[0].upper() + ':'
        for n in names:
            if n.startswith(event):
                return n
        return next((n for n in names if ':' in n), names[0])

    def umask_or(self, ev, umask, msr):
        """EVENT:U1:U2... whose umasks OR to umask, in libpfm4's order."""
        parts, got = [], 0
        for name, f in self.by_code.get(ev, []):
            if f[2:] == (0, 0, 0, 0, msr) and f[1] and f[1] & ~umask == 0 and f[1] & ~got:
                parts.append(name.split(':', 1)[1])
                got |= f[1]
        if got != umask or not parts:
            return None
        name = '%s:%s' % (self.by_code[ev][0][0].split(':')[0], ':'.join(parts))
        # libpfm4 refuses some unions (umasks of one exclusive group): ask it.
        env = dict(os.environ, LIBPFM_FORCE_PMU=self.pmu)
        out = subprocess.run([sys.executable, __file__, '--encode', name], env=env,
                             capture_output=True, text=True).stdout.split()
        if not out or fields(tuple(int(c, 16) for c in out), self.vendor)[:2] != (ev, umask):
            return None
        return name

    def knows_code(self, ev):
        return ev in self.by_code


# perf 6.1's expression lexer (util/expr.l): numbers, #literals, symbols
# with \- \, \= escapes, operators.
TOKEN = re.compile(r'(?P<num>([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)?)(?![0-9a-zA-Z_.:@?\\])'
                   r'|(?P<lit>#[0-9a-zA-Z_.\-]+)'
                   r'|(?P<sym>(\\[-,=]|[0-9a-zA-Z_.:@?])+)'
                   r'|(?P<op>[-+*/%()<>,|&^])|(?P<sp>\s+)')
KEYWORDS = {'d_ratio', 'max', 'min', 'if', 'else'}
PMU_PREFIX_SKIP = {'arb': 'the uncore ARB PMU', 'cstate_core': 'the cstate_core PMU',
                   'cstate_pkg': 'the cstate_pkg PMU', 'msr': 'the msr PMU'}


class Skip(Exception):
    pass


def tokens(expr):
    pos = 0
    while pos < len(expr):
        m = TOKEN.match(expr, pos)
        if not m:
            raise Skip('perf syntax perfkit does not read at %r' % expr[pos:pos + 10])
        pos = m.end()
        if m.lastgroup != 'sp':
            yield m.lastgroup, m.group(m.lastgroup)


def escape(name):
    """A perfkit event name in the expression's syntax."""
    return re.sub(r'([^0-9a-zA-Z_.:])', r'\\\1', name).replace('\\/', '@')


def translate_event(model, sym):
    """perf's event symbol -> perfkit's (escaped), or raise Skip."""
    raw = re.sub(r'\\(.)', r'\1', sym)
    if raw in SYSFS_EVENTS:
        return raw
    if raw.startswith('topdown-'):
        return escape(raw)
    terms = {}
    if '@' in raw:
        pmu, inner = raw.split('@')[0], raw.split('@')[1]
        if pmu != 'cpu':
            raise Skip('%s needs %s' % (raw, PMU_PREFIX_SKIP.get(pmu, 'the %s PMU' % pmu)))
        inner = inner.split(',')
        raw = inner[0]
        for t in inner[1:]:
            k, _, v = t.partition('=')
            terms[k] = v or '1'
    mods = ''
    if ':' in raw:
        raw, mods = raw.split(':', 1)
        if mods not in ('u', 'k'):
            raise Skip('%s: modifier %s' % (sym, mods))
        mods = ':' + mods
    if raw.upper() == 'TOPDOWN.SLOTS' and model.vendor == 'intel' and model.has_topdown:
        return 'slots'
    e = model.events.get(raw.upper())
    if e is None:
        raise Skip('%s is no event of this model\'s JSON' % raw)
    if raw.upper().startswith(('UNC_', 'OCR.', 'OFFCORE_RESPONSE')):
        raise Skip('%s is an %s event' % (raw, 'uncore' if raw.upper().startswith('UNC_')
                                          else 'offcore response'))
    want = json_fields(e)
    if want is None:
        raise Skip('%s has no single event code' % raw)
    want = list(want)
    for k, v in terms.items():
        i = {'umask': 1, 'cmask': 2, 'inv': 3, 'edge': 4, 'any': 5}.get(k)
        if i is None:
            raise Skip('%s: term %s' % (sym, k))
        want[i] = int(v, 0)
    want = tuple(want)
    name = model.name_for(want, raw)
    if name is None:
        ev, umask, cmask, inv, edge, anyt, msr = want
        if not model.knows_code(ev) or cmask or inv or edge or anyt or msr:
            raise Skip('libpfm4 has no name for %s (event 0x%x, umask 0x%x)' % (raw, ev, umask))
        return 'cpu@event\\=0x%x\\,umask\\=0x%x@' % (ev, umask)
    return escape(name) + mods


class Gen:
    def __init__(self, model):
        self.model = model
        self.names = {m['MetricName']: m for m in model.metrics}
        self.lower = {n.lower(): n for n in self.names}
        self.done = {}

    def expand(self, name, depth=0):
        if name in self.done:
            return self.done[name]
        if depth > 40:
            raise Skip('metric references too deep')
        out = []
        for kind, text in tokens(self.names[name]['MetricExpr']):
            if kind == 'sym' and text not in KEYWORDS:
                ref = text if text in self.names else self.lower.get(text.lower())
                if ref and not re.search(r'[.@:\\]', text):
                    try:
                        out.append('(' + self.expand(ref, depth + 1) + ')')
                    except Skip as s:
                        raise Skip('uses %s, left out: %s' % (ref, s))
                else:
                    out.append(translate_event(self.model, text))
            elif kind == 'lit':
                if text.lower() not in ('#smt_on', '#core_wide'):
                    raise Skip('literal %s' % text)
                out.append('#SMT_on' if text.lower() == '#smt_on' else text)
            else:
                out.append(text)
        s = ' '.join(out)  # one space between tokens, none inside ( ) or before ,
        s = s.replace('( ', '(').replace(' )', ')').replace(' ,', ',')
        s = re.sub(r'\b(d_ratio|max|min) \(', r'\1(', s)
        self.done[name] = s
        return s


def cstr(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def scale_unit(m):
    su = m.get('ScaleUnit')
    if not su:
        return '1', ''
    mm = re.match(r'([0-9.e+-]+)(.*)', su)
    return mm.group(1), mm.group(2)


def emit(model_tuple, out, counts):
    perfdir, macro, _, pmu, vendor = model_tuple
    model = Model(perfdir, pmu, vendor)
    model.has_topdown = any('topdown\\-' in m['MetricExpr'] for m in model.metrics)
    gen = Gen(model)
    rows, skipped = [], []
    for m in model.metrics:
        try:
            e = gen.expand(m['MetricName'])
        except Skip as s:
            skipped.append((m['MetricName'], str(s)))
            continue
        if model.has_topdown and 'topdown\\-' in e and not e.startswith('slots'):
            e = '0 * slots + ' + e  # the kernel takes topdown events only under slots
        rows.append((m, e))
    counts[perfdir] = (len(rows), len(skipped))
    out.append('/* perf 6.1\'s %s: %d metrics, %d left out. */' % (perfdir, len(rows), len(skipped)))
    if skipped:
        out.append('/*\n * Left out of %s:' % perfdir)
        for n, why in skipped:
            out.append(' *   %s: %s' % (n, why.replace('*/', '* /')))
        out.append(' */')
    for m, e in rows:
        scale, unit = scale_unit(m)
        # perf 6.1 knows one MetricConstraint, NO_NMI_WATCHDOG: the events
        # are not grouped while the NMI watchdog is on.
        constraint = m.get('MetricConstraint')
        out.append('METRIC(%s, %s,\n       %s,\n       %s, %s, %s,\n       %s,\n       %s)' % (
            cstr(m['MetricName']), cstr(m.get('MetricGroup', '')), cstr(e), scale, cstr(unit),
            macro, cstr(m.get('BriefDescription') or m.get('PublicDescription') or m['MetricName']),
            cstr(constraint) if constraint else 'NULL'))


HEADER = '''/* SPDX-License-Identifier: MIT */
/*
 * metrics.def - perfkit's table of named metrics for perfkit stat -M: one
 * METRIC(name, groups, expr, scale, unit, cpuid, desc, constraint) row per
 * metric.  groups is ';'-separated; expr is over event names (see
 * metric-expr.c); the value shown is expr * scale, followed by unit; cpuid
 * is a POSIX extended regex that must match the whole cpuid string (perf's
 * "Vendor-Family-MODEL-Stepping") for the metric to apply; constraint is
 * perf's MetricConstraint ("NO_NMI_WATCHDOG": its events are not grouped
 * while the NMI watchdog is on) or NULL.
 *
 * GENERATED by scripts/gen-metrics.py from perf 6.1's metric JSON
 * (tools/perf/pmu-events/arch/x86/{amdzen3/recommended.json,
 * skylake/skl-metrics.json, icelake/icl-metrics.json}); do not edit, run
 * the script.  The formulas are facts from the vendors' documentation
 * (AMD's PPR for family 19h; Intel's perfmon metrics); events are named as
 * libpfm4 names them (perfkit's event vocabulary), each with the encoding
 * perf's JSON gives it; metrics perf refers to by name are written out.
 * %s
 */'''


def main():
    if len(sys.argv) > 2 and sys.argv[1] == '--encode':
        print(*('%x' % x for x in (encode(_lib(), sys.argv[2]) or ())))
        return
    if len(sys.argv) > 2 and sys.argv[1] == '--enumerate':
        enumerate_pmu(sys.argv[2])
        return
    out, counts = [], {}
    for mt in MODELS:
        out.append('#define %s "%s"' % (mt[1], mt[2]))
    for mt in MODELS:
        emit(mt, out, counts)
    for mt in MODELS:
        out.append('#undef %s' % mt[1])
    summary = '; '.join('%s %d metrics (%d left out)' % (k, v[0], v[1]) for k, v in counts.items())
    print(HEADER % (summary + '.'))
    print('\n'.join(out))


if __name__ == '__main__':
    main()
