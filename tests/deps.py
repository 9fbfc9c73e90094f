#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: the modules of src/, and its folders, depend on each other one way only.

A module is the files of src/ that share a name up to the first dot, in
any directory: range.c and range.h; api/entry.c and api/x86_64/entry.S,
which replaces it; vec_template.S.  Module X uses module Y when a file of X
has #include "Y.h" (a generated header belongs to its source: offsets.h to
offsets.c, config.h to config.h.in).  A folder is src/ itself or one of its
subsystem directories (signal, engine, policy, api), with the architecture
directories inside it; folder A uses folder B when a file of A includes a
header of B.  The graphs are taken once per architecture (ARCH, a directory
name that holds a strategies.c in some folder, with the shared directories
such as x86 whose headers its files include as "x86/NAME.h").

Fails, printing the circle and the #include lines that close it, when two
modules, or two folders, use each other directly or through others; when a
header declares a variable that no file of its own module defines (a header
declares its own module's state, not another's); and when a portable file
(src/*.c, src/FOLDER/*.h...) chooses by architecture with #if: the
architecture's directory holds what differs, and the build picks it.

    deps.py SRC            check
    deps.py SRC --graph    also print, per architecture, what each folder
                           and each module uses
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
ATTRIBUTE = re.compile(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)")


def module_of(path):
    return os.path.basename(path).split(".", 1)[0]


def source_files(directory):
    names = sorted(os.listdir(directory))
    return [
        os.path.join(directory, n)
        for n in names
        if re.search(r"\.(c|h|S|S\.inc|h\.in)$", n)
        and os.path.isfile(os.path.join(directory, n))
    ]


def includes(path):
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1), line.strip()


def layout(src):
    """The folders (src/ first), the architectures, the shared directories"""
    subdirs = sorted(
        d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))
    )
    nested = set()
    for d in subdirs:
        path = os.path.join(src, d)
        nested.update(n for n in os.listdir(path)
                      if os.path.isdir(os.path.join(path, n)))
    archlike = nested | {d for d in subdirs if d in nested}
    folders = [src] + [os.path.join(src, d) for d in subdirs if d not in archlike]
    arches = sorted(
        d for d in archlike
        if any(os.path.exists(os.path.join(f, d, "strategies.c")) for f in folders)
    )
    shared = sorted(archlike - set(arches))
    return folders, arches, shared


def views(src):
    """Per architecture: the files of its build and of shared directories"""
    folders, arches, shared = layout(src)
    portable = [p for f in folders for p in source_files(f)]
    result = {}
    for arch in arches:
        files = portable + [p for f in folders
                            if os.path.isdir(os.path.join(f, arch))
                            for p in source_files(os.path.join(f, arch))]
        used = set()
        for path in files:
            for _, name, _ in includes(path):
                if "/" in name and name.split("/", 1)[0] in shared:
                    used.add(name.split("/", 1)[0])
        for d in sorted(used):
            files += [p for f in folders
                      if os.path.isdir(os.path.join(f, d))
                      for p in source_files(os.path.join(f, d))]
        result[arch] = files
    if not arches:
        result["portable"] = portable
    return result


def folder_of(path, src):
    """src for the files of src/ and its architecture directories, else
    the subsystem folder's name"""
    folders, _, _ = layout(src)
    rel = os.path.relpath(path, src).split(os.sep)
    if len(rel) > 1 and os.path.join(src, rel[0]) in folders:
        return rel[0]
    return "src"


def folder_graph(files, src):
    """folder -> {used folder: [(file, line number, text)]}, through the
    headers each file includes"""
    headers = {}
    for p in files:
        if p.endswith(".h"):
            headers.setdefault(os.path.basename(p), []).append(p)
    edges = {}
    for path in files:
        here = folder_of(path, src)
        edges.setdefault(here, {})
        for number, name, text in includes(path):
            found = [h for h in headers.get(os.path.basename(name), [])
                     if h.endswith(os.sep + name)]
            if not found:
                continue  # a system, public or generated header
            there = folder_of(found[0], src)
            edges.setdefault(there, {})
            if there != here:
                edges[here].setdefault(there, []).append(
                    (os.path.relpath(path, os.path.dirname(src)), number, text))
    return edges


def graph(files, src):
    """module -> {used module: [(file, line number, text)]}"""
    modules = {module_of(p) for p in files}
    edges = {m: {} for m in modules}
    for path in files:
        here = module_of(path)
        for number, name, text in includes(path):
            there = module_of(name)
            if there not in modules or there == here:
                continue  # a system or public header, or its own
            edges[here].setdefault(there, []).append(
                (os.path.relpath(path, os.path.dirname(src)), number, text)
            )
    return edges


def cycles(edges):
    """The strongly connected components of more than one module"""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def one_circle(edges, component):
    """A path from the component's first module back to itself"""
    start = component[0]
    members = set(component)
    path, seen = [start], {start}

    def walk(v):
        for w in sorted(edges[v]):
            if w not in members:
                continue
            if w == start:
                path.append(w)
                return True
            if w not in seen:
                seen.add(w)
                path.append(w)
                if walk(w):
                    return True
                path.pop()
        return False

    walk(start)
    return path


def declared_state(path):
    """Variables a header declares extern"""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    names = []
    for m in re.finditer(r"^\s*extern\b([^;]*);", text, re.M):
        decl = ATTRIBUTE.sub("", m.group(1))
        if "(" in decl:
            continue  # a function
        for part in decl.split(","):
            ident = re.findall(r"[A-Za-z_]\w*", part.split("[", 1)[0])
            if ident:
                names.append(ident[-1])
    return names


def defines(path, name):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(("extern", " ", "\t", "#", "/", "*")):
                continue
            if path.endswith((".S", ".inc")):
                if re.match(r"(%s:|UA_(ENTRY|SYMBOL)\(%s\))"
                            % (re.escape(name), re.escape(name)), line):
                    return True
            elif re.search(r"\b%s\b\s*(\[[^]]*\])?\s*(=|;|,|$)" % re.escape(name),
                           ATTRIBUTE.sub("", line)):
                return True
    return False


def check_state(files):
    problems = []
    by_module = {}
    for p in files:
        by_module.setdefault(module_of(p), []).append(p)
    for p in files:
        if not p.endswith(".h"):
            continue
        own = [f for f in by_module[module_of(p)] if not f.endswith(".h")]
        for name in declared_state(p):
            if any(defines(f, name) for f in own):
                continue
            where = [os.path.basename(f) for f in files
                     if not f.endswith(".h") and defines(f, name)]
            problems.append(
                "%s declares %s, which %s"
                % (p, name,
                   "is defined in " + ", ".join(where) if where
                   else "no file of src/ defines"))
    return problems


ARCH_IF = re.compile(
    r"^\s*#\s*(if|ifdef|ifndef|elif)\b.*\b__(x86_64|i[3-6]86|amd64|aarch64|"
    r"arm|riscv|powerpc|s390x?|mips|loongarch)\w*__")


def check_portable(src):
    problems = []
    folders, _, _ = layout(src)
    for path in [p for f in folders for p in source_files(f)]:
        for number, line in enumerate(open(path, encoding="utf-8"), 1):
            if ARCH_IF.match(line):
                problems.append("%s:%d: an architecture #if in a portable "
                                "file: %s" % (path, number, line.strip()))
    return problems


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__.split("\n\n", 1)[1], file=sys.stderr)
        return 2
    src = os.path.abspath(argv[1])
    show = "--graph" in argv[2:]
    if not os.path.isdir(src):
        print("deps.py: %s: not a directory" % argv[1], file=sys.stderr)
        return 2
    failed = False
    problems = set()
    for arch, files in views(src).items():
        for kind, edges in (("folders", folder_graph(files, src)),
                            ("modules", graph(files, src))):
            if show:
                print("%s, %s:" % (arch, kind))
                for m in sorted(edges):
                    print("  %-16s %s" % (m, " ".join(sorted(edges[m])) or "-"))
            for component in cycles(edges):
                failed = True
                circle = one_circle(edges, component)
                print("FAIL %s: %s in a circle: %s"
                      % (arch, kind, " -> ".join(circle)))
                for a, b in zip(circle, circle[1:]):
                    for where in edges[a][b][:2]:
                        print("  %s -> %s: %s:%d: %s" % ((a, b) + where))
        problems.update(check_state(files))
    problems.update(check_portable(src))
    for p in sorted(problems):
        failed = True
        print("FAIL %s" % p)
    if failed:
        return 1
    print("deps: %d architectures, no circle of folders or modules, every "
          "header declares its own state, no architecture #if in portable "
          "files"
          % len(views(src)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
