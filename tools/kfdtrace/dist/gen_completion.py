#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write kfdtrace's bash completion from the built command's own --help.

Usage: gen_completion.py KFDTRACE TEMPLATE OUTPUT

Runs `KFDTRACE --help`, `KFDTRACE CMD --help` for every command it lists
and `KFDTRACE sim --list-profiles`, and fills TEMPLATE's @COMMANDS@,
@PROFILES@, @OPTIONS@, @ARGS@ and @RUNS@ with what they say:

  - the commands, and each command's options (those of its Usage: lines
    and those that begin a line);
  - what each option's argument is, from the placeholder that follows it:
    a list of words ("ours|amd", "--timing=asap|original"), a profile
    ("PROFILE", "NAME|FILE": the builtin profiles and files), nothing to
    offer (a number or a name: "N", "SEQ", "LIST"), or a file (the rest);
    an argument in brackets ("--sim[=PROFILE]") only after its "=";
  - the commands that run a program ("-- CMD", "COMMAND [ARGS...]").

The word lists cannot drift from --help: they are made from it at build
time, and tests/dist checks the result against it.
"""
import re
import subprocess
import sys

# An option's name, then what may follow it: "[=ARG]", "=ARG" or " ARG".
NAME = re.compile(r'(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)')
AFTER = re.compile(r'\[=([^\]\s]+)\]|=([^\s\]]+)| ([^\s\]]+)')
# A placeholder: an upper-case word ("FILE", "DIR/", "X.Y", "C=L,...") or
# a list of words ("ours|amd", "NAME|FILE").
PLACEHOLDER = re.compile(r'^(?:[A-Z][A-Za-z0-9_.=/,-]*|\S+\|\S+)$')
# Placeholders whose argument has nothing to complete: numbers and names
# (and any list: "KIND,...").
NO_FILE = {'N', 'SEQ', 'LIST', 'MS', 'BYTES', 'SECONDS', 'X.Y', 'ID', 'E',
           'CMD', 'A..B', 'NAME', 'F'}
PROFILE = {'PROFILE', 'NAME|FILE'}
RUNS = re.compile(r'(?:--\]?|\[--\]) (?:CMD|COMMAND) \[ARGS')


def run(argv):
    return subprocess.run(argv, stdout=subprocess.PIPE, check=True,
                          universal_newlines=True).stdout


def commands(text):
    """The commands `kfdtrace --help` lists under "Commands:"."""
    out, on = [], False
    for line in text.splitlines():
        if line == 'Commands:':
            on = True
        elif on and not line.strip():
            break
        elif on:
            out.append(line.split()[0])
    return out


def specs(text):
    """What --help says of the options, as (name, mode, placeholder):
    every option of the Usage: lines (and their continuation and further
    usage lines: "       kfdtrace sim --list-profiles"), and the options
    that begin an option line ("-o, --output FILE", "--from SEQ, --to
    SEQ") up to where its description starts. Mode: "" (no argument),
    "req" or "opt" (in brackets: only after "=")."""
    out, usage = [], False
    for line in text.splitlines():
        body = line.strip()
        if line.startswith('Usage:'):
            usage = True
            body = line[len('Usage:'):]
        elif not (usage and body.startswith(('[', 'kfdtrace', '--'))):
            usage = False
        pos = 0
        while True:
            m = NAME.search(body, pos) if usage else NAME.match(body, pos)
            if not m:
                break
            a = AFTER.match(body, m.end())
            spec = (m.group(1), '', '')
            pos = m.end()
            if a and a.group(1):
                spec, pos = (m.group(1), 'opt', a.group(1)), a.end()
            elif a and PLACEHOLDER.match((a.group(2) or a.group(3) or
                                          '').rstrip(',')):
                arg = a.group(2) or a.group(3)
                # "--from SEQ, --to SEQ": the comma is the separator's.
                pos = a.end() - (1 if arg.endswith(',') else 0)
                spec = (m.group(1), 'req', arg.rstrip(','))
            out.append(spec)
            if not usage:
                # The next option of the line follows ", "; anything else
                # is the description.
                if body[pos:pos + 2] != ', ':
                    break
                pos += 2
    return out


def kind(arg):
    """What the argument placeholder @arg takes: a word list, "@profile",
    "@none" or "@file"."""
    if arg in PROFILE:
        return '@profile'
    if re.match(r'^[a-z][a-z0-9-]*(?:\|[a-z][a-z0-9-]*)*$', arg):
        return ' '.join(arg.split('|'))
    if arg in NO_FILE or arg.endswith(',...'):
        return '@none'
    return '@file'


def parse(text):
    """{option: (mode, kind)} of one command's --help."""
    opts = {}
    for name, mode, arg in specs(text):
        new = (mode, kind(arg) if mode else '')
        old = opts.get(name)
        # An argument beats none; a word list or profile beats a file or
        # nothing to offer ("--dump-profile P" beside "NAME|FILE").
        if old is None or (mode and (not old[0] or
                                     (old[1] in ('@file', '@none') and
                                      new[1] not in ('@file', '@none')))):
            opts[name] = new
    # "-o, --output FILE": the short spelling takes what the long one does.
    for line in text.splitlines():
        m = re.match(r'^\s*(-[A-Za-z]), (--[A-Za-z][A-Za-z0-9-]*)', line)
        if m and m.group(2) in opts:
            opts[m.group(1)] = opts[m.group(2)]
    return opts


def words(ws):
    return "'%s'" % ' '.join(ws)


def main():
    kfdtrace, template, output = sys.argv[1:4]
    top = run([kfdtrace, '--help'])
    cmds = commands(top)
    profiles = [l.split()[0] for l in
                run([kfdtrace, 'sim', '--list-profiles']).splitlines()
                if l.strip()]
    options, args, runs = [], [], []
    main_opts = parse(top)
    options.append("\t'') echo %s ;;" % words(sorted(main_opts)))
    for c in cmds:
        text = run([kfdtrace, c, '--help'])
        opts = parse(text)
        options.append('\t%s) echo %s ;;' % (c, words(sorted(opts))))
        for o in sorted(opts):
            mode, k = opts[o]
            if mode:
                args.append("\t'%s:%s') echo %s ;;" % (c, o, words([mode, k])))
        if RUNS.search(text):
            runs.append(c)
    with open(template) as f:
        s = f.read()
    s = (s.replace('@COMMANDS@', words(cmds + ['help']))
         .replace('@PROFILES@', words(profiles))
         .replace('@OPTIONS@', '\n'.join(options))
         .replace('@ARGS@', '\n'.join(args))
         .replace('@RUNS@', '|'.join(runs) or '-'))
    with open(output, 'w') as f:
        f.write(s)


if __name__ == '__main__':
    main()
