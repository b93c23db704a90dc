"""`python -m chrf`: the ``chrf`` command."""

import sys

from chrf.cli import main

sys.exit(main())
