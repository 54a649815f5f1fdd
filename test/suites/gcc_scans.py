#!/usr/bin/env python3
"""gcc_scans.py TESTSUITE WORK: what GCC checks its own profile use did,
checked on xprof-gcc's use builds (run by gcc_testsuite.sh --scans).

GCC's tree-prof tests end with scans (dg-final-use) of the use build's
dumps and assembly: that a division by a value seen in training was
specialised, that a cold function went to .text.unlikely, that no block's
counts disagree ("Invalid sum").  Each test here is trained and rebuilt
twice, with GCC's own -fprofile-generate / -fprofile-use and with
xprof-gcc's -xprofile=collect / -xprofile=use, and every scan of a dump
both builds write is checked on both.  Scans of GCC's `profile` and
`afdo` IPA dumps are not: GCC's profile pass does not run in xprof's
builds (the plugin's pass does that work, and GCC gives a plugin's pass
no dump option), so what they look for is checked through the later
dumps the same tests scan.

Prints one line per scan (test, GCC's own, xprof's, the scan) for the
scans the two builds disagree on, then "N passed, N failed": a scan passes
when xprof's use build passes every scan GCC's own passes.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

TARGET = 'x86_64-pc-linux-gnu'


def tcl_words(text):
    """The words of a Tcl list: {braced} kept as written, "quoted" with
    Tcl's backslash substitution, bare words."""
    words, i, n = [], 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
        elif text[i] == '{':
            depth, j = 1, i + 1
            while j < n and depth:
                if text[j] == '\\':
                    j += 1
                elif text[j] in '{}':
                    depth += 1 if text[j] == '{' else -1
                j += 1
            words.append(('braced', text[i + 1:j - 1]))
            i = j
        elif text[i] == '"':
            j, out = i + 1, []
            while j < n and text[j] != '"':
                if text[j] == '\\' and j + 1 < n:
                    out.append({'n': '\n', 't': '\t', 'r': '\r'}.get(text[j + 1], text[j + 1]))
                    j += 2
                else:
                    out.append(text[j])
                    j += 1
            words.append(('quoted', ''.join(out)))
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace():
                j += 1
            words.append(('bare', text[i:j]))
            i = j
    return words


def selected(selector):
    """Whether a dg selector ({ target ... }) takes x86-64 GNU/Linux, LP64."""
    words = selector.split()
    if not words or words[0] != 'target':
        return True
    expr = ' '.join(words[1:]).strip()
    if expr.startswith('{') and expr.endswith('}'):
        expr = expr[1:-1].strip()
    if expr.startswith('!'):
        return not selected('target ' + expr[1:])
    if '||' in expr:
        return any(selected('target ' + e) for e in expr.split('||'))
    for t in expr.split():
        if t in ('lp64', 'ilp32', 'llp64'):
            return t == 'lp64'
        glob_re = re.escape(t).replace(r'\*', '.*').replace(r'\?', '.')
        if re.fullmatch(glob_re, TARGET):
            return True
    return False


def scans_of(source):
    """The use-build scans of a test: (kind, arguments, text)."""
    scans = []
    for line in open(source, errors='replace'):
        m = re.search(r'dg-final-use(?:-not-autofdo)? +\{ *(scan-[a-z-]+)(.*)\} *\}', line)
        if not m:
            continue
        args = tcl_words(m.group(2))
        sel = [w for k, w in args if k == 'braced' and w.strip().startswith('target')]
        if sel and not selected(sel[0].strip()):
            continue
        scans.append((m.group(1), [w for k, w in args if not (k == 'braced' and w.strip().startswith('target'))],
                      line[line.find('scan-'):].rstrip(' */\n')))
    return scans


def directive(source, name):
    for line in open(source, errors='replace'):
        m = re.search(r'dg-%s +"([^"]*)"' % name, line)
        if m:
            return m.group(1)
    return ''


def run(command, cwd):
    return subprocess.run(command, cwd=cwd, shell=True, capture_output=True, text=True,
                          timeout=300)


def verdict(kind, args, build_dir, stem):
    """'pass', 'fail', or None when the scan cannot be checked here."""
    times = None
    pattern, rest = args[0], args[1:]
    if kind.endswith('-times'):
        times, rest = int(args[1]), args[2:]
    if kind.startswith('scan-assembler'):
        files = glob.glob(os.path.join(build_dir, '*' + stem + '.s'))
    else:
        family = kind.split('-')[1]
        if family not in ('tree', 'ipa', 'rtl') or rest[0] in ('profile', 'afdo', 'profile_estimate'):
            return None
        files = glob.glob(os.path.join(build_dir, '*%s.*.[0-9]*%s.%s' % (stem, family[0], rest[0])))
    if not files:
        return 'fail (no dump)'
    text = ''.join(open(f, errors='replace').read() for f in files)
    found = len(re.findall(pattern, text, re.S))  # Tcl's . matches newlines
    if times is not None:
        return 'pass' if found == times else 'fail (%d)' % found
    if '-not' in kind:
        return 'pass' if found == 0 else 'fail'
    return 'pass' if found else 'fail'


def build(who, source, work):
    """Train and rebuild one test; the directory of the use build, or an
    error text."""
    base = os.path.basename(source)
    out = os.path.join(work, who, base)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    cxx = source.endswith('.C')
    extra = ' '.join(os.path.join(os.path.dirname(source), x)
                     for x in directive(source, 'additional-sources').split())
    opts = directive(source, 'options')
    if who == 'gcc':
        cc = 'g++' if cxx else 'gcc'
        generate, use = '-fprofile-generate', '-fprofile-use -Wno-missing-profile'
    else:
        cc = 'xprof-g++' if cxx else 'xprof-gcc'
        generate, use = '-xprofile=collect:%s/p' % out, '-xprofile=use:%s/p' % out
    r = run('%s %s %s %s %s -o t' % (cc, opts, generate, source, extra), out)
    if r.returncode:
        return 'the training build failed: ' + r.stderr[:200]
    run('timeout 60 ./t', out)
    for f in glob.glob(os.path.join(out, '*.[0-9]*[tir].*')):
        os.remove(f)
    r = run('%s %s %s -save-temps %s %s -o t' % (cc, opts, use, source, extra), out)
    if r.returncode:
        return 'the use build failed: ' + r.stderr[:200]
    return None


def main():
    tests, work = sys.argv[1], sys.argv[2]
    sources = sorted(glob.glob(os.path.join(tests, 'gcc.dg/tree-prof/*.c')) +
                     glob.glob(os.path.join(tests, 'g++.dg/tree-prof/*.C')))
    passed = failed = unchecked = 0
    for source in sources:
        scans = scans_of(source)
        if not scans:
            continue
        stem = os.path.splitext(os.path.basename(source))[0]
        errors = {who: build(who, source, work) for who in ('gcc', 'xprof')}
        name = os.path.relpath(source, tests)
        if errors['xprof'] and not errors['gcc']:
            print('%s: %s' % (name, errors['xprof']))
            failed += len(scans)
            continue
        for kind, args, text in scans:
            own = errors['gcc'] or verdict(kind, args, os.path.join(work, 'gcc', os.path.basename(source)), stem)
            ours = verdict(kind, args, os.path.join(work, 'xprof', os.path.basename(source)), stem)
            if own is None or ours is None or own != 'pass':
                unchecked += 1
            elif ours == 'pass':
                passed += 1
            else:
                failed += 1
                print('%s\tGCC: %s\txprof: %s\t%s' % (name, own, ours, text))
        sys.stdout.flush()
    print('%d scans not checked (of GCC\'s profile dumps, or failing GCC\'s own build)' % unchecked)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
