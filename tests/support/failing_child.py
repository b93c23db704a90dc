"""One case of the failing-allocation test (`tests/reliability/test_failing_allocations.py`), in
an interpreter into which `failing_malloc.c` is preloaded. Each entry point is called once with
nothing refused, counting the allocations of at least THRESHOLD bytes it makes (n), then once per
k drawn from 1 to n, call k refusing the k-th of them. Each outcome is printed as a JSON line as
soon as it is known: [entry, k, outcome, allocations refused, large allocations], k = 0 for the
counting call."""

from __future__ import annotations

import ctypes
import json
import sys
from collections.abc import Callable

from oom_child import calls, judged

from soak import moments

#: Allocations from this size up are refused: what grows with the input, and none of the
#: interpreter's small objects.
THRESHOLD = 64 * 1024

#: Refused allocations per entry point: the first, the last and others drawn anew each run (all
#: of them with CHRF_SOAK=1).
SPREAD = 12


def main() -> None:
    spec = json.loads(sys.argv[1])
    allocator = ctypes.CDLL(None)
    allocator.fail_kth.argtypes = [ctypes.c_size_t, ctypes.c_size_t]
    allocator.refused_count.restype = allocator.large_count.restype = ctypes.c_size_t

    def attempt(entry: str, call: Callable[[], object], k: int) -> int:
        before = allocator.refused_count()
        allocator.fail_kth(THRESHOLD, k)
        try:
            said = judged(call)
        finally:
            large = allocator.large_count()
            allocator.fail_kth(0, 0)
        refused = allocator.refused_count() - before
        print(json.dumps([entry, k, said, refused, large]), flush=True)
        return large

    for call in calls(spec, 50).values():
        call()
    for entry, call in calls(spec, spec["rows"]).items():
        large = attempt(entry, call, 0)
        for k in moments(large, SPREAD) if large else []:
            attempt(entry, call, k + 1)


if __name__ == "__main__":
    main()
