# SPDX-License-Identifier: Apache-2.0
"""KUnit results in a guest's kernel log.

The guest (canary/wrapper.sh) writes "ttvm: kunit-module NAME" to the kernel
log before loading each *_kunit.ko and "ttvm: kunit-end" after the last.
Loading a module runs its suites, which print KTAP (KUnit of Linux 6.1):

        KTAP version 1
        # Subtest: SUITE
        1..N
            # CASE: EXPECTATION FAILED at ...     (diagnostics, deeper)
        not ok 1 CASE
        ok 2 CASE # SKIP why
    ok 7 SUITE

(case lines indented by 4, suite lines not at all; here all shifted by the
log's prefix). parse() turns that into per-module results the host reports
as TAP cases.
"""
import re

# busybox dmesg: "[    1.234567] message" with CONFIG_PRINTK_TIME, else bare.
_PREFIX = re.compile(r'^(?:\[\s*\d+\.\d+\] )?')
_MODULE = re.compile(r'^ttvm: kunit-module (\S+)$')
_FAILED = re.compile(r'^ttvm: kunit-(load|unload)-failed (\S+)$')
_SUBTEST = re.compile(r'^    # Subtest: (\S+)$')
_CASE = re.compile(r'^    (ok|not ok) \d+ (\S+)(?: # SKIP ?(.*))?$')
_SUITE = re.compile(r'^(ok|not ok) \d+ (\S+)(?: # SKIP ?(.*))?$')
# Diagnostics: "# CASE: EXPECTATION FAILED at f.c:10" and the lines of the
# expectation's message under it (one printk record, several lines).
_DIAG = re.compile(r'^ {4,}(?:# )?(?!KTAP version|1\.\.)(\S.*)$')


class Module:
    """One *_kunit.ko: its suites' cases and what went wrong around them."""

    def __init__(self, name):
        self.name = name
        self.cases = []     # (suite, case, ok, skip reason, diagnostics)
        self.suites = []    # (suite, ok)
        self.errors = []    # load or unload failures


def _lines(log):
    for line in log.splitlines():
        yield _PREFIX.sub('', line.rstrip('\r'), count=1)


def parse(log):
    """The modules in the order they were loaded, or [] without markers."""
    modules, mod, suite, diag = [], None, None, []
    for line in _lines(log):
        if line == 'ttvm: kunit-end':
            mod = None
            continue
        m = _MODULE.match(line)
        if m:
            mod, suite, diag = Module(m.group(1)), None, []
            modules.append(mod)
            continue
        if mod is None:
            continue
        m = _FAILED.match(line)
        if m:
            mod.errors.append(f'{m.group(1)} of {m.group(2)} failed')
            continue
        m = _SUBTEST.match(line)
        if m:
            suite, diag = m.group(1), []
            continue
        m = _CASE.match(line)
        if m and suite:
            mod.cases.append((suite, m.group(2), m.group(1) == 'ok',
                              m.group(3), diag))
            diag = []
            continue
        m = _SUITE.match(line)
        if m:
            mod.suites.append((m.group(2), m.group(1) == 'ok'))
            suite = None
            continue
        m = _DIAG.match(line)
        if m and suite:
            diag.append(m.group(1))
    return modules
