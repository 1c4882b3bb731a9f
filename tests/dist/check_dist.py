#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kfdtrace's man pages and bash completion hold what its --help says.

  man KFDTRACE MANDIR
      MANDIR has kfdtrace.1 and a kfdtrace-COMMAND.1 for every command
      `kfdtrace --help` lists; kfdtrace.1 names every command and the
      options of `kfdtrace --help`; each kfdtrace-COMMAND.1 is titled
      KFDTRACE-COMMAND and names every option of `kfdtrace COMMAND --help`.
      groff, when installed, finds nothing to warn about.

  completion KFDTRACE COMPLETION [BASH_COMPLETION]
      `bash -n` accepts COMPLETION (and shellcheck, when installed). Driven by COMP_WORDS and COMP_CWORD,
      its _kfdtrace offers: every command (and help) after kfdtrace; every
      option of a command's --help after "COMMAND -"; the builtin profiles
      (`sim --list-profiles`) for --profile and --sim=; the words of an
      option whose --help spells them ("--thunk ours|amd"); files for a
      file; nothing for a number; a program after "sim --"; a command's
      options again after an option's argument. With BASH_COMPLETION (the
      bash-completion library's main script) sourced first, the same.

Options are read from --help here by a rule of this test's own (the
Usage: lines, and the options that begin an option line), not by the
generator's, so a generator that misses one fails.

Exit 0 when everything holds, 1 with the list of what does not, 77 when
a program the check needs is missing (1 with CI=true).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def skip(why):
    if os.environ.get('CI') == 'true':
        print('dist: %s (CI=true: a failure, not a skip)' % why)
        sys.exit(1)
    print('dist: skipped: %s' % why)
    sys.exit(77)


def run(argv):
    return subprocess.run(argv, stdout=subprocess.PIPE, check=True,
                          universal_newlines=True).stdout


def commands(kfdtrace):
    """The commands under "Commands:" in `kfdtrace --help`."""
    text = run([kfdtrace, '--help'])
    block = text.split('\nCommands:\n', 1)[1].split('\n\n', 1)[0]
    return [l.split()[0] for l in block.splitlines()]


OPTION = re.compile(r'(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)')


def options(text):
    """The options --help states: all on the Usage: lines (and the lines
    that continue them), and those before the description on a line that
    begins with an option (the description starts at a two-space gap)."""
    found, usage = set(), False
    for line in text.splitlines():
        body = line.strip()
        if line.startswith('Usage:') or (usage and body.startswith(
                ('[', 'kfdtrace', '--'))):
            usage = True
            found |= set(OPTION.findall(body))
            continue
        usage = False
        if body.startswith('-'):
            head = re.split(r'\s{2,}', body)[0]
            # "--opt ARG the description": one space, then words.
            head = re.split(r' (?=[a-z]+ )', head)[0]
            found |= set(OPTION.findall(head))
    return found


def word_lists(text):
    """{option: words} for the options --help spells with their words
    ("--thunk ours|amd", "--timing=asap|original")."""
    out = {}
    for m in re.finditer(r'(?<![\w-])(--[a-z][a-z0-9-]*)[ =]'
                         r'([a-z][a-z0-9-]*(?:\|[a-z][a-z0-9-]*)+)', text):
        out[m.group(1)] = set(m.group(2).split('|'))
    return out


def man_text(path):
    """A page's text with roff's escapes for dashes and fonts undone."""
    s = open(path, errors='replace').read()
    s = re.sub(r'\\f[BIRP]|\\f\(..|\\[&/,]', '', s)
    return s.replace('\\-', '-').replace('\\(em', '-')


def check_man(kfdtrace, mandir):
    problems = []
    cmds = commands(kfdtrace)
    top = os.path.join(mandir, 'kfdtrace.1')
    if not os.path.exists(top):
        return ['kfdtrace.1 is missing']
    text = man_text(top)
    for c in cmds:
        if not re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(c), text):
            problems.append('kfdtrace.1 does not name the command %s' % c)
    for o in sorted(options(run([kfdtrace, '--help']))):
        if not re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(o), text):
            problems.append('kfdtrace.1 does not name %s' % o)
    pages = [top]
    for c in cmds:
        page = os.path.join(mandir, 'kfdtrace-%s.1' % c)
        if not os.path.exists(page):
            problems.append('kfdtrace-%s.1 is missing' % c)
            continue
        pages.append(page)
        text = man_text(page)
        th = re.search(r'^\.TH "?([^" ]+)', text, re.M)
        if not th or th.group(1) != 'KFDTRACE-%s' % c.upper():
            problems.append('kfdtrace-%s.1: title %s, not KFDTRACE-%s'
                            % (c, th.group(1) if th else 'none', c.upper()))
        for o in sorted(options(run([kfdtrace, c, '--help']))):
            if not re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(o), text):
                problems.append('kfdtrace-%s.1 does not name %s' % (c, o))
    if shutil.which('groff'):
        for p in pages:
            r = subprocess.run(['groff', '-man', '-ww', '-z', p],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT,
                               universal_newlines=True)
            if r.returncode or r.stdout.strip():
                problems.append('groff on %s: %s' % (os.path.basename(p),
                                                   r.stdout.strip()))
    print('dist: %d man pages checked against --help' % len(pages))
    return problems


# Each case: the words of the command line (the last one is completed),
# one a line, cases separated by an empty line; the answer is COMPREPLY.
DRIVER = r'''
%s
source "$1"
shift
complete -p kfdtrace >/dev/null || { echo "no completion for kfdtrace"; exit 3; }
words=()
while IFS= read -r w; do
	if [[ $w == '<end>' ]]; then
		COMP_WORDS=("${words[@]}")
		COMP_CWORD=$((${#words[@]} - 1))
		COMP_LINE="${words[*]}"
		COMP_POINT=${#COMP_LINE}
		COMPREPLY=()
		_kfdtrace kfdtrace "${words[COMP_CWORD]}" "${words[COMP_CWORD - 1]}" 2>/dev/null
		printf '%%s\n' "${COMPREPLY[@]}" '<end>'
		words=()
	else
		words+=("$w")
	fi
done
'''


def drive(completion, cases, preload):
    """COMPREPLY of each case (a list of words), as sets."""
    script = DRIVER % ('source "%s" >/dev/null 2>&1' % preload if preload
                       else '')
    feed = ''.join('\n'.join(c) + '\n<end>\n' for c in cases)
    r = subprocess.run(['bash', '-c', script, 'driver', completion],
                       input=feed, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode:
        raise RuntimeError('the driver failed (%d): %s%s'
                           % (r.returncode, r.stdout, r.stderr))
    out, cur = [], set()
    for line in r.stdout.splitlines():
        if line == '<end>':
            out.append(cur)
            cur = set()
        elif line:
            cur.add(line)
    return out


def check_completion(kfdtrace, completion, preload, work):
    if not shutil.which('bash'):
        skip('bash not found')
    r = subprocess.run(['bash', '-n', completion], stderr=subprocess.PIPE,
                       universal_newlines=True)
    if r.returncode:
        return ['bash -n %s: %s' % (completion, r.stderr.strip())]
    if shutil.which('shellcheck'):
        r = subprocess.run(['shellcheck', '-s', 'bash', completion],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        if r.returncode:
            return ['shellcheck %s:\n%s' % (completion, r.stdout.strip())]
    cmds = commands(kfdtrace)
    profiles = [l.split()[0] for l in
                run([kfdtrace, 'sim', '--list-profiles']).splitlines()
                if l.strip()]
    os.mkdir(os.path.join(work, 'sub'))
    for f in ('a.kfdtrace', 'b.txt'):
        open(os.path.join(work, f), 'w').close()
    k = 'kfdtrace'
    # (words, how to judge: '=' exactly, '>=' at least, what)
    cases = [([k, ''], '=', set(cmds) | {'help'}),
             ([k, '--v'], '=', {'--version'}),
             ([k, '--version', '--b'], '=', {'--build-options'}),
             ([k, 'help', ''], '=', set(cmds) | {'help'}),
             ([k, 'sim', '--profile', ''], '>=', set(profiles)),
             ([k, 'sim', '-p', 'mi'], '>=',
              {p for p in profiles if p.startswith('mi')}),
             ([k, 'record', '--sim', '=', ''], '>=', set(profiles)),
             ([k, 'record', '--sim=mi'], '>=',
              {'--sim=' + p for p in profiles if p.startswith('mi')}),
             ([k, 'sim', '--profile', 'mi210', '--th'], '=', {'--thunk'}),
             ([k, 'info', work + '/a'], '=', {work + '/a.kfdtrace'}),
             ([k, 'record', '-o', work + '/'], '>=',
              {work + '/a.kfdtrace', work + '/b.txt', work + '/sub'}),
             ([k, 'dump', '--from', ''], '=', set()),
             ([k, 'sim', '--', 'bas'], '>=', {'bash'}),
             ([k, 'record', '--sim', '--', 'bas'], '>=', {'bash'})]
    for c in cmds:
        text = run([kfdtrace, c, '--help'])
        cases.append(([k, c, '-'], '>=', options(text)))
        for o, ws in sorted(word_lists(text).items()):
            cases.append(([k, c, o, ''], '=', ws))
    problems = []
    for label, pre in (('', None), (' (bash-completion loaded)', preload)):
        if label and not pre:
            continue
        try:
            got = drive(completion, [c[0] for c in cases], pre)
        except RuntimeError as e:
            return [str(e) + label]
        for (words, how, want), have in zip(cases, got):
            if (how == '=' and have != want) or (how == '>=' and
                                                  not want <= have):
                missing = sorted(want - have)
                extra = sorted(have - want) if how == '=' else []
                problems.append('%r%s: %s%s%s' % (
                    ' '.join(words), label,
                    'missing %s' % ' '.join(missing) if missing else '',
                    '; ' if missing and extra else '',
                    'unexpected %s' % ' '.join(extra[:10]) if extra else ''))
    print('dist: %d completion cases checked%s' % (
        len(cases), ', also with bash-completion loaded' if preload else ''))
    return problems


def main():
    mode, kfdtrace, path = sys.argv[1:4]
    if not os.path.exists(path):
        print('dist: %s was not built' % path)
        return 1
    work = tempfile.mkdtemp(prefix='kfdtrace-dist-')
    try:
        if mode == 'man':
            problems = check_man(kfdtrace, path)
        else:
            preload = sys.argv[4] if len(sys.argv) > 4 else None
            problems = check_completion(kfdtrace, path, preload, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for p in problems:
        print('dist: ' + p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
