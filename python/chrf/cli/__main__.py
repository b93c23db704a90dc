"""`python -m chrf.cli`: the ``chrf`` command."""

import sys

from chrf.cli import main

sys.exit(main())
