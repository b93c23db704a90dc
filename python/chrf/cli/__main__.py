"""`python -m chrf.cli`: the ``chrf`` command (as `python -m chrf`)."""

import sys

from chrf.cli import main

sys.exit(main())
