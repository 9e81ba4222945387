#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# embed-js.py IN.js OUT.c NAME - the script as a C string constant NAME
# (the build makes export-flamegraph-js.c this way from flamegraph.js).
import sys

src, out, name = sys.argv[1:4]
lines = [l for l in open(src, encoding='utf-8').read().split('\n') if not l.startswith('//')]
body = ['\t"' + l.replace('\\', '\\\\').replace('"', '\\"') + '\\n"' for l in lines]
with open(out, 'w', encoding='utf-8') as f:
    f.write('/* SPDX-License-Identifier: MIT */\n/*\n * %s - generated from %s by embed-js.py.\n */\n'
            % (out.split('/')[-1], src.split('/')[-1]))
    f.write('#include "analysis/export-int.h"\n\nconst char %s[] =\n%s;\n' % (name, '\n'.join(body)))
