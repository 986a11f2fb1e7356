"""How many inputs the property tests generate, and how long one may take.

CI (and `make test`) runs each property test's own small slice; `make fuzz` sets `DTC_FUZZ_EXAMPLES`
and every property test then generates that many inputs (issue "Hardening": 100,000 per stage).
One input, whatever the stage, may take at most BOUND: a hang or a blow-up is a failure, not a
slow test (typical inputs take milliseconds; the bound is a hundred times that and more).
"""

from __future__ import annotations

import os
from datetime import timedelta

LONG_RUN = os.environ.get("DTC_FUZZ_EXAMPLES")
BOUND = timedelta(seconds=10)


def examples(ci: int) -> int:
    """The inputs a property test generates: `ci` in a normal run, DTC_FUZZ_EXAMPLES in a long one."""
    return int(LONG_RUN) if LONG_RUN else ci
