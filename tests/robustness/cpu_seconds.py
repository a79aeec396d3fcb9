"""Run CMD... with its output discarded; print the CPU seconds (user +
system) it took and its exit code: "SECONDS RC". CPU time, not wall time,
so a loaded machine slows a scaling check less."""
import resource
import subprocess
import sys

before = resource.getrusage(resource.RUSAGE_CHILDREN)
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL).returncode
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(f"{cpu:.2f} {rc}")
