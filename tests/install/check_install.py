#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What `meson install` puts on a machine, checked on a DESTDIR install of
the build under test (`meson install --destdir D --no-rebuild`).

  owners MESON BUILD CC
      Every installed file and symlink, at the path it would have with
      --prefix=/usr (the configured prefix replaced by /usr; a file
      installed outside the prefix at its own path), belongs to no Debian
      package (`dpkg-query -S` finds no owner; under /usr/lib, /usr/bin and
      /usr/sbin the merged-/usr alias /lib/... too). And every installed
      header compiles on its own with the installed include directory, and
      each function it declares is exported by an installed library.

  thunk MESON BUILD
      The installed kfdtrace, run from D with nothing in its environment
      that points at kfdtrace's libraries: `sim -- rocminfo` loads the
      system's libhsakmt.so.1 (one that a package owns), `sim --thunk ours`
      and `record --sim --thunk ours` load ours from D, and `sim --thunk
      amd` loads the system's even with ours in LD_LIBRARY_PATH. libkfdsim.so
      and the capture library come from D too. The build tree's kfdtrace
      `sim --thunk ours` loads build/thunk's. The libraries a process
      loaded are read from the dynamic linker's LD_DEBUG=libs output.

  staged MESON BUILD CC
      The installed tree used where it was staged, as a packager does
      before packing it: a program compiled and linked with the flags
      pkg-config gives for kfdtrace-hsakmt and kfdtrace (PKG_CONFIG_PATH
      and PKG_CONFIG_SYSROOT_DIR into D) runs under D's `kfdtrace sim
      --thunk ours`, `record --sim --thunk ours` and `replay --sim`, each
      loading libkfdsim.so, the capture library and our libhsakmt from D
      with nothing in the environment that names them; kfdtrace.pc's
      sim_lib and capture_lib are those files; KFDTRACE_SIM_LIB, when
      set, wins.

Exit 0 when everything holds, 1 with the list of what does not, 77 when a
program the check needs is missing (1 with CI=true).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def skip(why):
    if os.environ.get('CI') == 'true':
        print('install: %s (CI=true: a failure, not a skip)' % why)
        sys.exit(1)
    print('install: skipped: %s' % why)
    sys.exit(77)


def build_dirs(meson, build):
    """The configured install directories, by name."""
    opts = json.loads(subprocess.check_output(
        [meson, 'introspect', build, '--buildoptions']))
    d = {o['name']: o['value'] for o in opts
         if o['name'] in ('prefix', 'bindir', 'libdir', 'includedir')}
    for k in ('bindir', 'libdir', 'includedir'):
        if not d[k].startswith('/'):
            d[k] = os.path.join(d['prefix'], d[k])
    return d


def install(meson, build, dest):
    p = subprocess.run([meson, 'install', '-C', build, '--destdir', dest,
                        '--no-rebuild', '--quiet'],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode:
        print(p.stdout)
        print('install: meson install --destdir failed (%d)' % p.returncode)
        sys.exit(1)


def installed(dest):
    """Every installed file and symlink, as its path without DESTDIR."""
    out = []
    for root, dirs, files in os.walk(dest):
        for name in files + [d for d in dirs
                             if os.path.islink(os.path.join(root, d))]:
            out.append('/' + os.path.relpath(os.path.join(root, name), dest))
    return sorted(out)


def as_usr(path, prefix):
    if path.startswith(prefix.rstrip('/') + '/'):
        return '/usr' + path[len(prefix.rstrip('/')):]
    return path


def owners(paths):
    """path -> the packages dpkg-query says own it (only those owned)."""
    queries = {}
    for p in paths:
        queries[p] = p
        m = re.match(r'^/usr(/(?:s?bin|lib[a-z0-9]*)/.*)$', p)
        if m:
            queries[m.group(1)] = p
    r = subprocess.run(['dpkg-query', '-S'] + sorted(queries),
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       universal_newlines=True)
    found = {}
    for line in r.stdout.splitlines():
        m = re.match(r'^(.*?): (/.*)$', line)
        if m and m.group(2) in queries:
            found.setdefault(queries[m.group(2)], []).append(
                '%s (%s)' % (m.group(1), m.group(2)))
    return found


def exports(dest, files):
    """The symbols the installed shared objects define (nm -D)."""
    names = set()
    for f in files:
        if '.so' not in os.path.basename(f) or os.path.islink(dest + f):
            continue
        out = subprocess.check_output(['nm', '-D', '--defined-only', dest + f],
                                      universal_newlines=True)
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3:
                names.add(parts[2].split('@')[0])
    return names


# Declared in an installed header although no library exports it, and why.
NOT_EXPORTED = {
    # AMD's hsakmt.h declares it and AMD's libhsakmt does not export it
    # either: ours keeps the declaration for source compatibility.
    'hsaKmtReportQueue',
}


def included(dest, headers):
    """The installed headers another installed header includes: parts
    (kfd_abi_rocm.h, hsakmttypes_queues.h), compiled through that one."""
    parts = set()
    for h in headers:
        for line in open(dest + h, errors='replace'):
            m = re.match(r'^\s*#\s*include\s*"([^"]+)"', line)
            if m:
                parts.add(os.path.normpath(os.path.join(os.path.dirname(h),
                                                        m.group(1))))
    return parts


def header_problems(cc, dest, files, includedir, work):
    """Each installed header that is not a part of another compiles with
    the installed include directory alone; each function an installed
    header declares is exported by an installed library."""
    inc = dest + includedir
    exported = exports(dest, files)
    headers = [f for f in files if f.endswith('.h')]
    parts = included(dest, headers)
    problems = []
    for h in (h for h in headers if h not in parts):
        src = os.path.join(work, 'one.c')
        info = os.path.join(work, 'one.info')
        with open(src, 'w') as f:
            f.write('#include "%s"\n' % (dest + h))
        r = subprocess.run(cc + ['-fsyntax-only', '-aux-info', info,
                                 '-I', inc, src],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        if r.returncode:
            problems.append('%s does not compile with only the installed '
                            'headers:\n%s' % (h, r.stdout.strip()))
            continue
        for line in open(info):
            # "/* FILE:LINE:NC */ extern int name (args);": C a declaration,
            # F a definition (a static inline function needs no library).
            m = re.match(r'^/\* (.*):\d+:[NO]([CF]) \*/ (.*)$', line)
            if not m or m.group(2) != 'C' or not m.group(1).startswith(inc + '/'):
                continue
            name = re.search(r'(\w+)\s*\((?!\*)', m.group(3))
            if name and name.group(1) not in exported | NOT_EXPORTED:
                problems.append('%s declares %s(), which no installed '
                                'library exports'
                                % (m.group(1)[len(dest):], name.group(1)))
    return sorted(set(problems))


def check_owners(meson, build, cc, dest, work):
    if not shutil.which('dpkg-query'):
        skip('dpkg-query not found (not a Debian system)')
    if not shutil.which('nm'):
        skip('nm (binutils) not found')
    dirs = build_dirs(meson, build)
    install(meson, build, dest)
    files = installed(dest)
    if not files:
        print('install: meson install put nothing in %s' % dest)
        return 1
    problems = []
    mapped = {as_usr(f, dirs['prefix']): f for f in files}
    for path, pkgs in sorted(owners(mapped).items()):
        problems.append('%s (installed as %s) would replace a file of %s'
                        % (path, mapped[path], ', '.join(pkgs)))
    problems += header_problems(cc, dest, files, dirs['includedir'], work)
    print('install: %d files installed (prefix %s), checked as under /usr'
          % (len(files), dirs['prefix']))
    for f in files:
        print('  ' + f)
    for p in problems:
        print('install: ' + p)
    return 1 if problems else 0


def loaded(out, base):
    """The real paths of the libraries called @base... that were loaded."""
    libs = set()
    for line in out.splitlines():
        m = re.search(r'calling init: (/\S+)$', line)
        if m and os.path.basename(m.group(1)).startswith(base):
            libs.add(os.path.realpath(m.group(1)))
    return libs


def run_checked(argv, env, what, ours, tree, problems):
    """Run @argv; check its status, rocminfo's agent and where each
    library came from: libhsakmt from the directory @ours, or the system's
    (one a package owns) when @ours is None; libkfdsim.so and the capture
    library from under @tree."""
    r = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=120)
    err = r.stderr
    bad = []
    if r.returncode:
        bad.append('exit status %d' % r.returncode)
    if not re.search(r'Name:\s+gfx90a', r.stdout):
        bad.append('rocminfo printed no gfx90a agent')
    hsakmt = loaded(err, 'libhsakmt.so')
    if len(hsakmt) != 1:
        bad.append('libhsakmt loaded: %s' % (sorted(hsakmt) or 'none'))
    else:
        lib = hsakmt.pop()
        if ours and os.path.dirname(lib) != ours:
            bad.append('loaded %s, not ours from %s' % (lib, ours))
        elif not ours and lib.startswith(tree + '/'):
            bad.append('loaded ours (%s), not the system\'s' % lib)
        elif not ours and not owners([lib]):
            bad.append('loaded %s, which no package owns (an earlier '
                       'install of ours?)' % lib)
    preloads = ['libkfdsim.so']
    if 'record' in argv:
        preloads.append('libkfdtrace-capture.so')
    for name in preloads:
        libs = loaded(err, name)
        if not libs or any(not l.startswith(tree + '/') for l in libs):
            bad.append('%s loaded from %s, not from under %s'
                       % (name, sorted(libs) or 'nowhere', tree))
    print('install: %s: %s' % (what, '; '.join(bad) or 'as expected'))
    if bad:
        tail = [l for l in err.splitlines() if 'calling init' not in l
                and not re.match(r'^\s*\d+:', l)]
        problems.append('%s: %s\n%s' % (what, '; '.join(bad),
                                        '\n'.join(tail[-20:])))


def check_thunk(meson, build, dest, work):
    if not shutil.which('rocminfo'):
        skip('rocminfo is not installed')
    if not shutil.which('dpkg-query'):
        skip('dpkg-query not found (not a Debian system)')
    st = subprocess.run(['dpkg-query', '-W', '-f', '${db:Status-Status}',
                         'libhsakmt1'], stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL, universal_newlines=True)
    if st.stdout != 'installed':
        skip('Debian\'s libhsakmt1 is not installed')
    dirs = build_dirs(meson, build)
    install(meson, build, dest)
    dest = os.path.realpath(dest)
    build = os.path.realpath(build)
    kfdtrace = dest + dirs['bindir'] + '/kfdtrace'
    ours = dest + dirs['libdir'] + '/kfdtrace'
    # Nothing that tells kfdtrace or the dynamic linker where our libraries
    # are: the installed program must find them itself.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(('KFDTRACE_', 'KFDSIM_', 'LD_'))}
    env['LD_DEBUG'] = 'libs'
    sim = [kfdtrace, 'sim', '--profile', 'mi210']
    problems = []
    run_checked(sim + ['--', 'rocminfo'], env, 'sim', None, dest, problems)
    run_checked(sim + ['--thunk', 'ours', '--', 'rocminfo'], env,
                'sim --thunk ours', ours, dest, problems)
    run_checked(sim + ['--thunk', 'amd', '--', 'rocminfo'],
                dict(env, LD_LIBRARY_PATH=ours),
                'sim --thunk amd (ours in LD_LIBRARY_PATH)', None, dest,
                problems)
    run_checked([kfdtrace, 'record', '--sim=mi210', '--thunk', 'ours', '-o',
                 os.path.join(work, 'rocminfo.kfdtrace'), '--', 'rocminfo'],
                env, 'record --thunk ours', ours, dest, problems)
    # The same rule in the build tree: ours is build/thunk.
    run_checked([build + '/tools/kfdtrace/kfdtrace', 'sim', '--profile',
                 'mi210', '--thunk', 'ours', '--', 'rocminfo'], env,
                'build tree: sim --thunk ours', build + '/thunk', build,
                problems)
    for p in problems:
        print('install: ' + p)
    return 1 if problems else 0


# The staged program: our libhsakmt's API and kfdtrace's ABI header.
HELLO = r"""
#include <stdio.h>
#include <hsakmt.h>
#include <kfdtrace/kfd_abi.h>

int main(void)
{
	HsaVersionInfo v;

	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtGetVersion(&v) != HSAKMT_STATUS_SUCCESS)
		return 1;
	printf("KFD %u.%u (headers %d.%d)\n", v.KernelInterfaceMajorVersion,
	       v.KernelInterfaceMinorVersion, KFD_ABI_MAJOR_VERSION,
	       KFD_ABI_MINOR_VERSION);
	return hsaKmtCloseKFD() != HSAKMT_STATUS_SUCCESS;
}
"""


def staged_run(argv, env, what, libs, problems, cwd):
    """Run @argv; check its status, the program's line and that each
    library of @libs ({name: directory}) was loaded from that directory."""
    r = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=120)
    bad = []
    if r.returncode:
        bad.append('exit status %d' % r.returncode)
    if 'replay' not in argv and not re.search(r'^KFD 1\.\d+', r.stdout, re.M):
        bad.append('the program printed no KFD version')
    for name, where in sorted(libs.items()):
        got = loaded(r.stderr, name)
        if not got or any(os.path.dirname(l) != where for l in got):
            bad.append('%s loaded from %s, not from %s'
                       % (name, sorted(got) or 'nowhere', where))
    print('install: %s: %s' % (what, '; '.join(bad) or 'as expected'))
    if bad:
        tail = [l for l in r.stderr.splitlines() if 'calling init' not in l
                and not re.match(r'^\s*\d+:', l)]
        problems.append('%s: %s\n%s' % (what, '; '.join(bad),
                                        '\n'.join(tail[-20:])))


def check_staged(meson, build, cc, dest, work):
    if not shutil.which('pkg-config'):
        skip('pkg-config not found')
    dirs = build_dirs(meson, build)
    install(meson, build, dest)
    dest = os.path.realpath(dest)
    kfdtrace = dest + dirs['bindir'] + '/kfdtrace'
    libdir = dest + dirs['libdir']
    ours = libdir + '/kfdtrace'
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(('KFDTRACE_', 'KFDSIM_', 'LD_', 'PKG_CONFIG'))}
    pc_env = dict(env, PKG_CONFIG_PATH=libdir + '/pkgconfig',
                  PKG_CONFIG_SYSROOT_DIR=dest)
    problems = []
    r = subprocess.run(['pkg-config', '--cflags', '--libs', 'kfdtrace-hsakmt',
                        'kfdtrace'], env=pc_env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode:
        print('install: pkg-config kfdtrace-hsakmt kfdtrace: %s' % r.stdout)
        return 1
    flags = r.stdout.split()
    print('install: pkg-config: %s' % ' '.join(flags))
    for var, name in (('sim_lib', 'libkfdsim.so'),
                      ('capture_lib', 'libkfdtrace-capture.so'),
                      ('thunkdir', None)):
        v = subprocess.run(['pkg-config', '--variable=' + var, 'kfdtrace'],
                           env=pc_env, stdout=subprocess.PIPE,
                           universal_newlines=True).stdout.strip()
        want = libdir + ('/' + name if name else '/kfdtrace')
        # pkgconf puts the sysroot before a variable, pkg-config does not.
        if v not in (want, want[len(dest):]) or not os.path.exists(want):
            problems.append('kfdtrace.pc: %s=%s, not %s (or missing)'
                            % (var, v, want[len(dest):]))
    src = os.path.join(work, 'hello.c')
    with open(src, 'w') as f:
        f.write(HELLO)
    hello = os.path.join(work, 'hello')
    r = subprocess.run(cc + ['-o', hello, src] + flags, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode:
        print('install: the program does not build with pkg-config\'s '
              'flags:\n%s' % r.stdout)
        return 1
    env['LD_DEBUG'] = 'libs'
    sim_libs = {'libkfdsim.so': libdir, 'libhsakmt.so': ours}
    rec_libs = dict(sim_libs, **{'libkfdtrace-capture.so': libdir})
    trace = os.path.join(work, 'hello.kfdtrace')
    staged_run([kfdtrace, 'sim', '--profile', 'mi210', '--thunk', 'ours',
                '--', hello], env, 'staged sim --thunk ours', sim_libs,
               problems, work)
    staged_run([kfdtrace, 'record', '--sim=mi210', '--thunk', 'ours', '-o',
                trace, '--', hello], env, 'staged record --sim --thunk ours',
               rec_libs, problems, work)
    if os.path.exists(trace):
        staged_run([kfdtrace, 'replay', '--sim=mi210', trace], env,
                   'staged replay --sim', {'libkfdsim.so': libdir},
                   problems, work)
    else:
        problems.append('record wrote no %s' % trace)
    # The variable names the build tree's library instead.
    built = os.path.realpath(os.path.join(build, 'tools', 'kfdsim',
                                          'libkfdsim.so'))
    staged_run([kfdtrace, 'sim', '--thunk', 'ours', '--', hello],
               dict(env, KFDTRACE_SIM_LIB=built),
               'staged sim, KFDTRACE_SIM_LIB set',
               {'libkfdsim.so': os.path.dirname(built)}, problems, work)
    for p in problems:
        print('install: ' + p)
    return 1 if problems else 0


def main():
    mode, meson, build = sys.argv[1:4]
    top = tempfile.mkdtemp(prefix='kfdtrace-install-')
    try:
        dest = os.path.join(top, 'dest')
        work = os.path.join(top, 'work')
        os.mkdir(work)
        if mode == 'owners':
            return check_owners(meson, build, sys.argv[4:], dest, work)
        if mode == 'staged':
            return check_staged(meson, build, sys.argv[4:], dest, work)
        return check_thunk(meson, build, dest, work)
    finally:
        shutil.rmtree(top, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
