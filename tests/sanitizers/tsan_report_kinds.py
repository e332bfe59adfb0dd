#!/usr/bin/env python3
"""Sorts a ThreadSanitizer log into reports that pass through Qt and reports between Tessera's own accesses.

Debian's Qt 6 is not built with -fsanitize=thread: the synchronisation inside libQt6Core (QMutex on
futexes, QThreadPool, QFutureInterface, posted events) is invisible to ThreadSanitizer, so every
object handed from one thread to another through Qt is reported as a race. A report whose two
access stacks stay in code ThreadSanitizer can see (Tessera's, the standard library's) is one to
read: it is either a real race or a missing std synchronisation. What this cannot tell: a race in
Tessera's code between two threads that Qt synchronises is reported as a hand-off too; only a Qt
built with -fsanitize=thread would tell those apart. Exits 1 when any report is Tessera's own.

    python3 tests/sanitizers/tsan_report_kinds.py TSAN.log... [--show N]
"""
import re
import sys

QT_HANDOFF = re.compile(
    r"QtConcurrent|RunFunctionTaskBase|QFutureInterface|QFutureWatcher|ResultStore|QMetaCallEvent|"
    r"QSlotObject|QCallableObject|QFunctorSlotObject|QThreadPool|QRunnable|QObject::event|sendPostedEvents|"
    r"QMetaObject::activate|doActivate|QWaitCondition|QMutex|failed to restore")


# A frame of Tessera's code or tests (a source path of this repository; gtest's and the C library's are not).
OURS = re.compile(r"#\d+ .* (?:\S*/)?(core|views|app|plugins|samples|tests)/\S+:\d+")


def access_stacks(report):
    """The 'Read/Write ... by thread' and 'Previous ...' sections, not where memory or threads came from."""
    sections = re.split(r"\n\n", report)
    return [s for s in sections
            if re.search(r"(Read|Write|Atomic|Previous)[^\n]*(of size|by)", s)
            and not s.strip().startswith(("Location", "Mutex", "Thread"))]


def kind(report):
    stacks = access_stacks(report)
    if any(QT_HANDOFF.search(stack) for stack in stacks):
        return "hand-off"  # one side reached the memory through Qt's thread hand-off
    if any(not OURS.search(stack) for stack in stacks):
        return "qt-internal"  # one side is Qt's own code alone (its font, image and pooled threads)
    return "ours"


def main():
    arguments = sys.argv[1:]
    show = 0
    if "--show" in arguments:
        at = arguments.index("--show")
        show = int(arguments[at + 1])
        del arguments[at:at + 2]
    if not arguments:
        sys.exit(__doc__)
    reports = []
    for path in arguments:
        with open(path, errors="replace") as log:
            reports += [r for r in log.read().split("==================") if "WARNING: ThreadSanitizer" in r]
    kinds = [kind(r) for r in reports]
    ours = [r for r, k in zip(reports, kinds) if k == "ours"]
    print(f"{len(reports)} reports: {kinds.count('hand-off')} through Qt's uninstrumented thread hand-offs, "
          f"{kinds.count('qt-internal')} with one side in Qt's own code alone, {len(ours)} between Tessera's own accesses")
    for report in ours[:show]:
        print(report)
    sys.exit(1 if ours else 0)


if __name__ == "__main__":
    main()
