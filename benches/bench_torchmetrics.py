"""chrf.torchmetrics.CHRFScore against torchmetrics' own CHRFScore on one WMT22 system.

    python3 -m pip install -e '.[test,integrations]' && python3 benches/bench_torchmetrics.py [DATA]

DATA is the folder holding wmt/ (default: benches/wmt_data.py's choice). Both metrics get the
whole system in one update (chrF++, torchmetrics' default); the script prints each time and
score, and sacreBLEU's score, which chrf's must equal.
"""

from __future__ import annotations

import sys
import time

from sacrebleu.metrics import CHRF
from torchmetrics.text import CHRFScore as TorchmetricsCHRFScore
from wmt_data import wmt_dir

from chrf.torchmetrics import CHRFScore


def main() -> None:
    folder = wmt_dir(sys.argv[1] if len(sys.argv) > 1 else None) / "generaltest2022.en-de"
    hyps = (folder / "hyp.Online-B.txt").read_text("utf-8").split("\n")[:-1]
    refs = (folder / "ref.A.txt").read_text("utf-8").split("\n")[:-1]
    target = [[ref] for ref in refs]
    sacrebleu = CHRF(word_order=2).corpus_score(hyps, [refs]).score
    print(f"en-de Online-B, {len(hyps)} segments, chrF++; sacreBLEU: {sacrebleu}")
    for name, metric in (("chrf", CHRFScore()), ("torchmetrics", TorchmetricsCHRFScore())):
        start = time.perf_counter()
        metric.update(hyps, target)
        value = float(metric.compute()) * 100
        print(f"{name:>12}: {time.perf_counter() - start:8.3f} s  score {value!r}")
        if name == "chrf":
            assert value == sacrebleu or abs(value - sacrebleu) < 1e-12, (value, sacrebleu)


if __name__ == "__main__":
    main()
