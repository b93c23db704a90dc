"""The optional pieces explain themselves (issue 37): an integration module imported without its
framework names the extra to install, and every extra the documents name exists."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: Each integration module, the first framework it imports, and the extra that brings it (the
#: first, so that the test means the same with the frameworks installed or not).
MODULES = [
    ("chrf.dask", "dask", "integrations"),
    ("chrf.torchmetrics", "torch", "integrations"),
    ("chrf.mbrs", "torch", "mbr"),
    ("chrf.zurich_mbr", "mbr", "mbr"),
]

# Blocks one package the way a missing one fails (`None` in sys.modules makes its import raise
# ModuleNotFoundError), then imports the module and prints what it raised.
PROGRAM = """
import json, sys
module, blocked = sys.argv[1:]
for name in list(sys.modules):
    if name == blocked or name.startswith(blocked + "."):
        del sys.modules[name]
sys.modules[blocked] = None
try:
    __import__(module)
except ImportError as error:
    print(json.dumps([type(error).__name__, str(error), error.name]))
else:
    print(json.dumps(None))
"""


@pytest.mark.parametrize(("module", "blocked", "extra"), MODULES)
def test_an_integration_without_its_framework_names_its_extra(
    module: str, blocked: str, extra: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, module, blocked],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    raised = json.loads(done.stdout)
    assert raised is not None, f"{module} imported with {blocked} missing"
    kind, message, name = raised
    assert kind == "ModuleNotFoundError"
    assert f"pip install 'chrf[{extra}]'" in message
    assert module in message
    assert blocked in message
    assert name == blocked
