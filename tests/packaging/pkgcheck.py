#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Packaging checks for uaccess: what a C programmer installing it expects.

  pkgcheck.py symbols --header H --shared SO --static A --soname NAME
  pkgcheck.py header  --include DIR --source C --libdir DIR [--cc CC]
                      [--cflags=FLAGS]
  pkgcheck.py install --build DIR --header H --source C --examples DIR
                      [--cc CC] [--generator G] [--version V]
                      [--cflags=FLAGS]
  pkgcheck.py install --installed PREFIX ...   what packages installed
                      there (/usr), found by pkg-config and find_package
                      as a user's build finds them

--cflags: the build's C flags (CMAKE_C_FLAGS), added to every consumer's
compile and link, so that a sanitizer build's consumers link its runtime.
  pkgcheck.py man     --mandir DIR --header H

Exit 0 pass, 1 fail, 77 skip (a tool the check needs is missing).
"""
import argparse
import filecmp
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def run(cmd, **kw):
    """Run cmd; return (returncode, stdout, stderr) as text."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, **kw)
    return p.returncode, p.stdout, p.stderr


def must(cmd, what, **kw):
    """Run cmd; a non-zero exit is a failure, reported with its output."""
    rc, out, err = run(cmd, **kw)
    if rc != 0:
        fail("%s: exit %d\n  $ %s\n%s%s" % (what, rc, " ".join(cmd), out, err))
    return rc == 0, out


def finish(skipped=None):
    if failures:
        print("%d failure(s)" % len(failures), file=sys.stderr)
        return 1
    if skipped:
        print("SKIP: " + skipped)
        return SKIP
    print("ok")
    return 0


# ---- The public names, read from the header ----

def public_names(header):
    """(functions, function-like macros) declared by uaccess.h for C."""
    text = open(header).read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"\\\n", " ", text)
    funcs, macros, code = set(), set(), []
    # One entry per open #if: True while in C++-only code, or in a region
    # under "#if UA__..." (the header's own machinery: static helpers,
    # error declarations, the checked copies' macros over real functions)
    skip = []
    for line in text.split("\n"):
        s = line.strip()
        d = re.match(r"#\s*(\w+)\s*(.*)", s)
        if d:
            kw, rest = d.group(1), d.group(2)
            if kw in ("if", "ifdef", "ifndef"):
                skip.append((kw == "ifdef" and rest.strip() == "__cplusplus")
                            or (kw == "if" and rest.startswith("UA__")))
            elif kw == "else" and skip:
                skip[-1] = False
            elif kw == "endif" and skip:
                skip.pop()
            elif kw == "define" and not any(skip):
                m = re.match(r"(ua_[a-z]\w*)\(", rest)
                if m:
                    macros.add(m.group(1))
            continue
        if not any(skip):
            code.append(s)
    for m in re.finditer(r"\b(ua_\w+)\s*\(", " ".join(code)):
        funcs.add(m.group(1))
    return funcs, macros


# ---- symbols ----

# Globals the compiler adds to objects: sanitizer and coverage data, and
# i386's PIC thunks (hidden, one per object, merged at link)
INSTRUMENTATION = re.compile(r"__(odr_asan|asan|ubsan|tsan|msan|sancov|llvm|"
                             r"gcov|profc|profd|covrec|x86\.get_pc_thunk)")

def interposed_names(path):
    """The C library's signal functions the library stands in for
    (src/signal/interposed.def, the list the build reads too): exported
    unversioned from the shared library, and as __wrap_NAME from the
    static one (ld --wrap)."""
    names = set()
    with open(path) as f:
        for line in f:
            m = re.match(r"UA_INTERPOSED\w*\((\w+)\)$", line.strip())
            if m:
                names.add(m.group(1))
    return names


def check_symbols(a):
    for tool in ("nm", "readelf"):
        if not shutil.which(tool):
            return finish("%s not installed (binutils)" % tool)
    funcs, _ = public_names(a.header)
    interposed = interposed_names(a.interposed)
    if not interposed:
        fail("no interposed function found in %s" % a.interposed)
    seen_interposed = set()
    ok, out = must(["nm", "-D", "--defined-only", a.shared], "nm -D")
    exported, versions = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        kind, sym = parts[-2], parts[-1]
        if kind == "A" and "@" not in sym:  # the version node itself
            versions.add(sym)
            continue
        name, _, version = sym.partition("@@")
        if name in interposed:
            if version:
                fail("interposed %s is versioned (%s): it would not stand "
                     "in for libc's" % (name, version))
            seen_interposed.add(name)
            continue
        if not name.startswith("ua_"):
            fail("exported symbol outside the ua_ namespace: %s" % sym)
        if not version.startswith("UACCESS_"):
            fail("exported symbol without a UACCESS_ version: %s" % sym)
        exported.add(name)
    for name in sorted(funcs - exported):
        fail("declared in uaccess.h but not exported: %s" % name)
    for name in sorted(exported - funcs):
        fail("exported but not declared in uaccess.h: %s" % name)
    if not versions:
        fail("no symbol version node (version script not applied?)")
    for name in sorted(interposed - seen_interposed):
        fail("interposed function not exported: %s" % name)

    ok, out = must(["readelf", "-dW", a.shared], "readelf -d")
    m = re.search(r"\(SONAME\)\s+Library soname: \[(.*?)\]", out)
    soname = m.group(1) if m else None
    if soname != a.soname:
        fail("SONAME is %s, expected %s" % (soname, a.soname))
    elif not os.path.exists(os.path.join(os.path.dirname(a.shared), soname)):
        fail("no %s link beside %s" % (soname, a.shared))
    if "TEXTREL" in out:
        fail("the shared library has text relocations")
    ok, out = must(["readelf", "-lW", a.shared], "readelf -l")
    for line in out.splitlines():
        if "GNU_STACK" in line and "E" in line.split()[-2:][0]:
            fail("the shared library asks for an executable stack")

    ok, out = must(["nm", "-g", "--defined-only", a.static], "nm (static)")
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and not parts[-1].startswith("ua_") \
                and not INSTRUMENTATION.match(parts[-1]) \
                and parts[-1] not in ("__wrap_" + n for n in interposed):
            fail("static library defines a global outside ua_: %s"
                 % parts[-1])
    print("%d functions exported, versions %s, SONAME %s"
          % (len(exported), ",".join(sorted(versions)), soname))
    return finish()


# ---- header ----

# Translation units besides the full consumer: the header after the usual
# feature-test macros (it must not clash with what they expose).
EXTRA_TUS = {
    "after_gnu_source.c":
        "#ifndef _GNU_SOURCE\n#define _GNU_SOURCE\n#endif\n#include <signal.h>\n#include <ucontext.h>\n"
        "#include <uaccess.h>\n#include <uaccess.h>\n"
        "int main(void) { int v = 0; return ua_get_user(v, &v); }\n",
    # Fortified (the checked copies are macros over always-inline helpers)
    # and the block fallbacks: without asm goto outputs, without asm goto
    "fortified.c":
        "#undef _FORTIFY_SOURCE\n#define _FORTIFY_SOURCE 3\n#include <uaccess.h>\n"
        "static char u[64];\n"
        "int main(void) { char b[16]; size_t n = sizeof(b);\n"
        "  n = ua_copy_from_user(b, u, n) + ua_copy_to_user(u, b, n)\n"
        "    + ua_copy_from_user_nocache(b, u, n);\n"
        "  return (int)n + b[0]; }\n",
    "block_no_goto_output.c":
        "#define UA_ASM_GOTO_OUTPUT 0\n#include <uaccess.h>\n"
        "int main(void) { static unsigned long v; unsigned long *p = &v;\n"
        "  unsigned long x = 0;\n"
        "  if (!ua_user_access_begin(p, sizeof(*p))) return 1;\n"
        "  ua_unsafe_get_user(x, p, f); ua_unsafe_put_user(x + 1, p, f);\n"
        "  if (!ua_unsafe_try_cmpxchg_user(p, &x, x + 2, f)) return 3;\n"
        "  ua_unsafe_xchg_user(p, x, &x, f);\n"
        "  ua_unsafe_load_acquire_user(x, p, f);\n"
        "  ua_unsafe_store_release_user(x, p, f);\n"
        "  ua_user_access_end(); return (int)x;\n"
        "f: ua_user_access_end(); return 2; }\n",
    "block_calls.c":
        "#define UA_NO_INLINE_ACCESS\n#include <uaccess.h>\n"
        "int main(void) { static short v; short *p = &v; short x = 0;\n"
        "  static int a; int *q = &a; int y = 0;\n"
        "  if (!ua_user_access_begin(p, sizeof(*p))) return 1;\n"
        "  ua_unsafe_get_user(x, p, f); ua_unsafe_put_user(x, p, f);\n"
        "  if (!ua_unsafe_try_cmpxchg_user(q, &y, 1, f)) return 3;\n"
        "  ua_unsafe_xchg_user(q, 2, &y, f);\n"
        "  ua_unsafe_load_acquire_user(y, q, f);\n"
        "  ua_unsafe_store_release_user(y, q, f);\n"
        "  ua_user_access_end(); return x + y - 2;\n"
        "f: ua_user_access_end(); return 2; }\n",
    "after_posix.c":
        "#define _POSIX_C_SOURCE 200809L\n#include <signal.h>\n"
        "#include <uaccess.h>\n"
        "int main(void) { short v = 1; return ua_put_user(v, &v); }\n",
}


def linux_source(consumer):
    """The <uaccess/linux.h> consumer beside consumer.c, if there is one."""
    path = os.path.join(os.path.dirname(os.path.abspath(consumer)),
                        "linux_consumer.c")
    return path if os.path.exists(path) else None


def compilers(names):
    found, seen = [], set()
    for n in names:
        p = shutil.which(n) if n else None
        if p and os.path.realpath(p) not in seen:
            seen.add(os.path.realpath(p))
            found.append(p)
    return found


def family(compiler):
    rc, out, err = run([compiler, "--version"])
    return "clang" if "clang" in out else "gcc"


def check_header(a):
    warn = ["-pedantic", "-Werror", "-Wall", "-Wextra"]
    link = ["-L" + a.libdir, "-luaccess", "-Wl,-rpath," + a.libdir]
    link += a.cflags.split()  # the build's flags: sanitizers must link too
    # A sanitized library runs only with its own compiler's runtime: the
    # other compiler family then only compiles.
    sanitized = "-fsanitize" in a.cflags
    own = family(a.cc) if a.cc else None
    cc = compilers([a.cc, "gcc", "clang"])
    cxx = compilers(["g++", "clang++"])
    if not cc:
        return finish("no C compiler")
    tmp = tempfile.mkdtemp(prefix="uaccess-header-")
    try:
        linux = linux_source(a.source)
        sources = [a.source] + ([linux] if linux else [])
        for name, text in EXTRA_TUS.items():
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
            sources.append(path)
        builds = [(c, ["-std=" + s]) for c in cc for s in ("c99", "c11")]
        builds += [(c, ["-x", "c++", "-std=" + s])
                   for c in cxx for s in ("c++11", "c++17")]
        n = 0
        for compiler, std in builds:
            for src in sources:
                exe = os.path.join(tmp, "t%d" % n)
                n += 1
                # fortify needs optimisation (glibc warns without it)
                opt = ["-O2"] if src.endswith("fortified.c") else []
                what = "%s %s %s" % (os.path.basename(compiler),
                                     " ".join(std), os.path.basename(src))
                if sanitized and family(compiler) != own:
                    must([compiler] + std + warn + opt + ["-I" + a.include,
                          "-c", src, "-o", exe + ".o"], what)
                    print("compiled %s" % what)
                    continue
                ok, _ = must([compiler] + std + warn + opt + ["-I" + a.include,
                              src, "-o", exe] + link, what)
                if ok and src in (a.source, linux):
                    must([exe], "running " + what)
                elif ok:
                    run([exe])  # only the build matters for these
                print("built %s" % what)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish(None if cxx else "no C++ compiler (g++ or clang++)")


# ---- install ----

CONSUMER_CMAKE = """cmake_minimum_required(VERSION 3.20)
project(uaccess_consumer C)
find_package(uaccess {version} REQUIRED)
add_executable(consumer_shared consumer.c)
target_link_libraries(consumer_shared PRIVATE uaccess::uaccess)
add_executable(consumer_static consumer.c)
target_link_libraries(consumer_static PRIVATE uaccess::uaccess_static)
"""


def check_install(a):
    cmake = shutil.which("cmake")
    pkgconfig = shutil.which("pkg-config") or shutil.which("pkgconf")
    if not cmake:
        return finish("cmake not installed")
    funcs, macros = public_names(a.header)
    tmp = tempfile.mkdtemp(prefix="uaccess-install-")
    try:
        if a.installed:
            # Installed by a package: found where a user's tools find it
            prefix = a.installed
            if not pkgconfig:
                return fail("pkg-config not installed") or finish()
            ok, out = must([pkgconfig, "--variable=pcfiledir", "uaccess"],
                           "pkg-config finding uaccess.pc")
            if not ok:
                return finish()
            pcs = [os.path.join(out.strip(), "uaccess.pc")]
        else:
            prefix = os.path.join(tmp, "prefix")
            ok, _ = must([cmake, "--install", a.build, "--prefix", prefix],
                         "cmake --install")
            if not ok:
                return finish()
            pcs = glob.glob(os.path.join(prefix, "**", "pkgconfig",
                                         "uaccess.pc"), recursive=True)

        # What is installed
        inc = os.path.join(prefix, "include", "uaccess.h")
        if not os.path.exists(inc) or not filecmp.cmp(inc, a.header, False):
            fail("include/uaccess.h not installed as in the source tree")
        linux_h = os.path.join(os.path.dirname(a.header), "uaccess", "linux.h")
        inc = os.path.join(prefix, "include", "uaccess", "linux.h")
        if os.path.exists(linux_h) and (not os.path.exists(inc) or
                                        not filecmp.cmp(inc, linux_h, False)):
            fail("include/uaccess/linux.h not installed as in the source tree")
        if len(pcs) != 1:
            return fail("uaccess.pc installed %d times" % len(pcs)) or finish()
        pcdir = os.path.dirname(pcs[0])
        libdir = os.path.dirname(pcdir)
        for lib in ("libuaccess.so", "libuaccess.so.0", "libuaccess.a",
                    "libuaccess-preload.so"):
            if not os.path.exists(os.path.join(libdir, lib)):
                fail("%s not installed in %s" % (lib, libdir))
        if not glob.glob(os.path.join(libdir, "cmake", "uaccess",
                                      "uaccess-config.cmake")):
            fail("CMake package config not installed")
        mandir = os.path.join(prefix, "share", "man")
        pages = ["man3/%s.3" % n for n in sorted(funcs | macros)]
        pages += ["man7/uaccess.7", "man7/libuaccess-preload.7"]
        for tool in glob.glob(os.path.join(prefix, "bin", "uaccess-*")):
            pages.append("man1/%s.1" % os.path.basename(tool))
        for page in pages:
            # a package compresses them
            if not any(os.path.exists(os.path.join(mandir, page + z))
                       for z in ("", ".gz")):
                fail("man page not installed: %s" % page)
        if shutil.which("man"):
            env = dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="")
            env.pop("MANPAGER", None)
            env.pop("PAGER", None)
            for name in sorted(funcs | macros) + ["uaccess"]:
                rc, out, err = run(["man", "-M", mandir, "-P", "cat", name],
                                   env=env)
                if rc != 0 or name not in out:
                    # man -M looks names up in man-db's index, which a
                    # host's deferred trigger may not have updated yet:
                    # then the installed file itself must show the page
                    page = os.path.join("man3", name + ".3")
                    if name == "uaccess":
                        page = os.path.join("man7", "uaccess.7")
                    for z in ("", ".gz"):
                        if os.path.exists(os.path.join(mandir, page + z)):
                            page += z
                            break
                    rc, out, err = run(["man", "-P", "cat", "-l", page],
                                       env=env, cwd=mandir)
                if rc != 0 or name not in out:
                    fail("`man %s` does not show its page: %s" % (name, err))
        print("installed: header, libraries, pkg-config, CMake config, "
              "%d man pages" % len(pages))

        # A consumer and every example, built with pkg-config only
        if pkgconfig:
            env = dict(os.environ)
            if not a.installed:
                env.update(PKG_CONFIG_LIBDIR=pcdir, PKG_CONFIG_PATH=pcdir)
            ok, ver = must([pkgconfig, "--modversion", "uaccess"],
                           "pkg-config --modversion", env=env)
            if ok and a.version and ver.strip() != a.version:
                fail("pkg-config version %s, expected %s"
                     % (ver.strip(), a.version))
            ok, flags = must([pkgconfig, "--cflags", "--libs", "uaccess"],
                             "pkg-config --cflags --libs", env=env)
            if ok:
                linux = linux_source(a.source)
                progs = [a.source] + ([linux] if linux else []) + sorted(
                    glob.glob(os.path.join(a.examples, "*.c")))
                for src in progs:
                    exe = os.path.join(tmp, "pc-" + os.path.basename(src)[:-2])
                    ok, _ = must([a.cc or "cc", src, "-o", exe]
                                 + flags.split() + a.cflags.split()
                                 + ([] if a.installed
                                    else ["-Wl,-rpath," + libdir]),
                                 "building %s via pkg-config" % src)
                    if ok:
                        ok, out = must([exe], "running " + exe, cwd=tmp)
                        print("pkg-config: %s ran" % os.path.basename(src))

        # A separate CMake project using find_package(uaccess)
        proj = os.path.join(tmp, "cmake-consumer")
        os.makedirs(proj)
        shutil.copy(a.source, os.path.join(proj, "consumer.c"))
        with open(os.path.join(proj, "CMakeLists.txt"), "w") as f:
            f.write(CONSUMER_CMAKE.format(version=a.version or ""))
        bdir = os.path.join(proj, "build")
        cfg = [cmake, "-S", proj, "-B", bdir]
        if not a.installed:
            cfg += ["-DCMAKE_PREFIX_PATH=" + prefix]
        if a.generator:
            cfg += ["-G", a.generator]
        if a.cc:
            cfg += ["-DCMAKE_C_COMPILER=" + a.cc]
        if a.cflags:
            cfg += ["-DCMAKE_C_FLAGS=" + a.cflags]
        ok, _ = must(cfg, "configuring a find_package(uaccess) project")
        if ok:
            ok, _ = must([cmake, "--build", bdir], "building it")
        if ok:
            for exe in ("consumer_shared", "consumer_static"):
                must([os.path.join(bdir, exe)], "running " + exe)
                print("find_package: %s ran" % exe)
    finally:
        if not os.environ.get("UA_KEEP_TMP"):
            shutil.rmtree(tmp, ignore_errors=True)
    return finish(None if pkgconfig else "pkg-config not installed")


# ---- man ----

def page_lines(path):
    return [l for l in open(path).read().split("\n")
            if not l.startswith('.\\"') and not l.startswith("'\\\"")]


def check_man(a):
    if not shutil.which("groff"):
        return finish("groff not installed (Debian: groff-base)")
    funcs, macros = public_names(a.header)
    a.mandir = os.path.abspath(a.mandir)
    pages = sorted(glob.glob(os.path.join(a.mandir, "man[0-9]", "*.[0-9]")))
    names = {os.path.splitext(os.path.basename(p))[0]: p for p in pages}
    real = 0
    for path in pages:
        rel = os.path.relpath(path, a.mandir)
        base, ext = os.path.splitext(os.path.basename(path))
        lines = [l for l in page_lines(path) if l.strip()]
        if lines and lines[0].startswith(".so "):
            target = os.path.join(a.mandir, lines[0].split()[1])
            if len(lines) != 1:
                fail("%s: a .so link page must hold only the .so line" % rel)
            if not os.path.isfile(target):
                fail("%s: .so target %s does not exist" % (rel, target))
            elif page_lines(target)[0:1] and any(
                    l.startswith(".so ") for l in page_lines(target)):
                fail("%s: .so target is itself a link" % rel)
            elif not re.search(r"\b%s\b" % re.escape(base),
                               open(target).read().split(".SH SYNOPSIS")[0]):
                fail("%s: %s does not name %s in NAME" % (rel, target, base))
            continue
        real += 1
        text = "\n".join(lines)
        for dev in ([], ["-Tutf8"]):
            rc, out, err = run(["groff", "-man", "-ww", "-z"] + dev + [path],
                               cwd=a.mandir)
            if rc != 0 or err.strip():
                fail("%s: groff -man -ww -z %s:\n%s"
                     % (rel, " ".join(dev), err))
        th = re.search(r"^\.TH\s+(\S+)\s+(\S+)", text, re.M)
        if not th or th.group(1).strip('"') != base or \
                th.group(2).strip('"') != ext[1:]:
            fail("%s: .TH must name %s section %s" % (rel, base, ext[1:]))
        need = ["NAME", "SYNOPSIS", "DESCRIPTION", "SEE ALSO"]
        if ext == ".3":
            need.insert(3, "RETURN VALUE")
        have = re.findall(r"^\.SH\s+\"?([^\"\n]+)\"?", text, re.M)
        for sec in need:
            if sec not in have:
                fail("%s: no %s section" % (rel, sec))
        for ref, sec in re.findall(r"^\.BR?\s+\\?\"?((?:ua_|uaccess)[\w-]*)"
                                   r"\s*\"?\s*\((\d)\)", text, re.M):
            if not os.path.exists(os.path.join(a.mandir, "man" + sec,
                                               "%s.%s" % (ref, sec))):
                fail("%s: refers to %s(%s), which has no page"
                     % (rel, ref, sec))
    for name in sorted(funcs | macros):
        if name not in names or not names[name].endswith(".3"):
            fail("public name %s has no man3 page" % name)
    if "uaccess" not in names:
        fail("no uaccess.7 overview page")
    print("%d pages (%d links), %d public names covered"
          % (len(pages), len(pages) - real, len(funcs | macros)))
    return finish()


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd")
    s = sub.add_parser("symbols")
    s.add_argument("--header", required=True)
    s.add_argument("--shared", required=True)
    s.add_argument("--static", required=True)
    s.add_argument("--interposed", required=True)
    s.add_argument("--soname", required=True)
    s = sub.add_parser("header")
    s.add_argument("--include", required=True)
    s.add_argument("--source", required=True)
    s.add_argument("--libdir", required=True)
    s.add_argument("--cc")
    s.add_argument("--cflags", default="")
    s = sub.add_parser("install")
    g = s.add_mutually_exclusive_group(required=True)
    g.add_argument("--build", help="install this build tree into a "
                   "temporary prefix, then check that")
    g.add_argument("--installed", metavar="PREFIX",
                   help="check what a package installed under PREFIX "
                   "(/usr), found as users find it")
    s.add_argument("--header", required=True)
    s.add_argument("--source", required=True)
    s.add_argument("--examples", required=True)
    s.add_argument("--cc")
    s.add_argument("--generator")
    s.add_argument("--version")
    s.add_argument("--cflags", default="")
    s = sub.add_parser("man")
    s.add_argument("--mandir", required=True)
    s.add_argument("--header", required=True)
    a = ap.parse_args()
    checks = {"symbols": check_symbols, "header": check_header,
              "install": check_install, "man": check_man}
    if a.cmd not in checks:
        ap.error("which check?")
    return checks[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
