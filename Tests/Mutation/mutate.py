"""The mutation check: plants each mutant of Tests/Mutation/mutants.json (a small edit to
one place in Sources) in a scratch copy of the package, rebuilds, runs the whole test
suite up to its first failure, and reports the mutant killed (with the test that failed)
or survived.

    python3 Tests/Mutation/mutate.py                  every mutant (make mutate)
    python3 Tests/Mutation/mutate.py NAME...          the mutants named
    python3 Tests/Mutation/mutate.py --pick 3 --seed TEXT
                                                      three mutants chosen by TEXT (CI: the commit)
    python3 Tests/Mutation/mutate.py --in-place ...   in the package itself, on its own build: for a
                                                      throwaway clone (CI); each file is put back after

A mutant whose text no longer occurs exactly once in its file, or that does not compile,
is an error to fix in mutants.json, never skipped. Exits 1 when a mutant survived or had
an error. The scratch copy lives in .build/mutate, so that later runs build incrementally.
"""

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRATCH = os.path.join(ROOT, ".build", "mutate", "package")
TEST_TIMEOUT = 900
# The Makefile's flags, so that after 'make test' the package's own build is incremental.
SWIFTFLAGS = ["-Xswiftc", "-warnings-as-errors"]


def tracked_files():
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [name for name in listing.decode().split("\0") if name]


def sync():
    """Copies the package's files into the scratch copy, touching only those that changed."""
    os.makedirs(SCRATCH, exist_ok=True)
    for name in tracked_files():
        source = os.path.join(ROOT, name)
        target = os.path.join(SCRATCH, name)
        if not os.path.isfile(source):
            continue
        with open(source, "rb") as stream:
            content = stream.read()
        if os.path.exists(target):
            with open(target, "rb") as stream:
                if stream.read() == content:
                    continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(source, target)


def build():
    result = subprocess.run(
        ["swift", "build", "--build-tests"] + SWIFTFLAGS, cwd=SCRATCH, capture_output=True, text=True)
    return result.returncode == 0, result.stdout + result.stderr


def test():
    """Runs the suite until it passes or a test fails: a mutant is killed by its first
    failure, and the rest of the suite is not waited for. Returns whether it passed, the
    first test that failed, and what the failures said."""
    mark = os.urandom(8).hex()
    process = subprocess.Popen(
        ["swift", "test", "--skip-build"] + SWIFTFLAGS, cwd=SCRATCH, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, errors="replace", start_new_session=True,
        env=dict(os.environ, PAYLINKS_MUTATION_RUN=mark))
    expired = threading.Event()
    timer = threading.Timer(TEST_TIMEOUT, lambda: (expired.set(), stop(process)))
    timer.start()
    failed, reports = None, []
    try:
        for line in process.stdout:
            found = re.search(r'✘ Test "([^"]+)"', line) or re.search(r"error: -\[\S+ (\S+)\]", line)
            if found or ": error: " in line:
                reports.append(line.rstrip())
            if found:
                failed = found.group(1)
                stop(process)
                break
    finally:
        process.wait()
        timer.cancel()
        stop_strays(mark)
    if failed is None and expired.is_set():
        failed = "the suite ran past %d s" % TEST_TIMEOUT
    if failed is None and process.returncode != 0:
        failed = "the suite failed (exit %d)" % process.returncode
    return failed is None, failed, "\n".join(reports[:20])


def stop(process):
    """Ends the suite and every process it started."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass


def stop_strays(mark):
    """Kills what the suite started and left running once it ended: a test stopped before
    it stops its sandbox leaves it, in a process group of its own (Foundation gives each
    child one), where stop() does not reach. Each has the suite's environment, and in it
    `mark`, which no other process has."""
    if not os.path.isdir("/proc"):
        return
    needle = ("PAYLINKS_MUTATION_RUN=%s" % mark).encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open("/proc/%s/environ" % entry, "rb") as environ:
                if needle in environ.read().split(b"\0"):
                    os.kill(int(entry), signal.SIGKILL)
        except OSError:
            pass


def chosen(mutants, arguments):
    if "--help" in arguments or "-h" in arguments:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quietly, when piped into head
        print(__doc__.strip())
        sys.exit(0)
    values = {arguments[i + 1] for i, a in enumerate(arguments[:-1]) if a in ("--pick", "--seed")}
    unknown = [a for a in arguments if a.startswith("-") and a not in ("--pick", "--seed", "--in-place")
               and a not in values]
    if unknown:
        sys.exit("error: unknown option %s; the options are --pick N, --seed TEXT and --in-place (see --help)"
                 % unknown[0])
    if "--pick" in arguments:
        value = arguments[arguments.index("--pick") + 1] if arguments[-1] != "--pick" else ""
        if not value.isdigit() or int(value) == 0:
            sys.exit("error: --pick takes a number of mutants above 0, as in --pick 3; got '%s'" % value)
        count = int(value)
        seed = arguments[arguments.index("--seed") + 1] if "--seed" in arguments else ""
        ranked = sorted(mutants, key=lambda m: hashlib.sha256((seed + m["name"]).encode()).hexdigest())
        return ranked[:count]
    names = [argument for argument in arguments if not argument.startswith("--")]
    unknown = [name for name in names if name not in {m["name"] for m in mutants}]
    if unknown:
        sys.exit("error: no mutant named %s; the names are in Tests/Mutation/mutants.json" % ", ".join(unknown))
    return [m for m in mutants if m["name"] in names] if names else mutants


def main():
    global SCRATCH
    with open(os.path.join(ROOT, "Tests", "Mutation", "mutants.json"), encoding="utf-8") as stream:
        mutants = json.load(stream)
    selected = chosen(mutants, sys.argv[1:])
    started = time.time()
    if "--in-place" in sys.argv[1:]:
        # The package's own build serves: no scratch copy to build from nothing. A signal
        # still puts the mutated file back, through the finally below.
        SCRATCH = ROOT
        signal.signal(signal.SIGTERM, lambda number, frame: sys.exit("mutate: stopped by signal %d" % number))
    print("mutate: %d of %d mutants, in %s" % (len(selected), len(mutants), os.path.relpath(SCRATCH, ROOT)),
          flush=True)
    if SCRATCH != ROOT:
        sync()
    built, log = build()
    if not built:
        print(log[-3000:])
        sys.exit("error: the package does not build as it is; fix that first")
    passed, failure, reports = test()
    if not passed:
        print(reports)
        sys.exit("error: the suite fails without a mutant (%s); fix that first" % failure)
    width = max(len(m["name"]) for m in selected)
    counts = {"killed": 0, "SURVIVED": 0, "ERROR": 0}
    for mutant in selected:
        path = os.path.join(SCRATCH, mutant["file"])
        with open(path, encoding="utf-8") as stream:
            original = stream.read()
        found = original.count(mutant["find"])
        began = time.time()
        if found != 1:
            verdict, detail = "ERROR", "its text occurs %d times in %s: update mutants.json" % (found, mutant["file"])
        else:
            with open(path, "w", encoding="utf-8") as stream:
                stream.write(original.replace(mutant["find"], mutant["replace"]))
            try:
                built, _ = build()
                if not built:
                    verdict, detail = "ERROR", "it does not compile: update mutants.json"
                else:
                    passed, failure, _ = test()
                    verdict, detail = ("SURVIVED", mutant["why"]) if passed else ("killed", 'by "%s"' % failure)
            finally:
                with open(path, "w", encoding="utf-8") as stream:
                    stream.write(original)
        counts[verdict] += 1
        print("%-8s  %-*s  %s (%d s)" % (verdict, width, mutant["name"], detail, time.time() - began), flush=True)
    minutes, seconds = divmod(int(time.time() - started), 60)
    print("mutate: %d killed, %d survived, %d errors in %d min %d s"
          % (counts["killed"], counts["SURVIVED"], counts["ERROR"], minutes, seconds))
    # Leave the scratch copy as the package is, for the next run to build on.
    build()
    sys.exit(1 if counts["SURVIVED"] or counts["ERROR"] else 0)


if __name__ == "__main__":
    main()
