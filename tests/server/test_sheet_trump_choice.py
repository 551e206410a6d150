"""The web scorekeeper under Al Okuneff's rules: the server's sheet says who chooses trump and
takes the choice (``choose_trump``), and the page's own rules (static/js/rules.js, used offline)
give the same chooser and refuse the tricks before the choice, as the server does."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from ohhell.rules import preset
from ohhell.scorekeeper import ScoreError, ScoreSheet
from ohhell.server.web.sheets import _apply, sheet_json

RULES_JS = Path(__file__).resolve().parents[2] / "ohhell" / "server" / "static" / "js" / "rules.js"


def bid_sheet() -> ScoreSheet:
    sheet = ScoreSheet(preset("okuneff", players=4, real_cards=True), ["Ann", "Bob", "Cy", "Dee"], first_dealer=3)
    for seat, bid in enumerate((2, 4, 4, 1)):
        _apply(sheet, {"op": "bid", "seat": seat, "bid": bid})
    return sheet


def test_the_server_sheet_asks_who_chose_and_takes_the_suit() -> None:
    sheet = bid_sheet()
    data = sheet_json("x", sheet)
    assert data["trump_is_chosen"] and data["trump_chooser"] == 1 and data["trump"] is None
    assert data["plan"]["hands"][0]["chosen"] is True
    with pytest.raises(ScoreError, match="enter the trump Bob chose before the tricks"):
        _apply(sheet, {"op": "tricks", "tricks": [2, 4, 3, 1]})
    with pytest.raises(ScoreError, match="must be a suit letter"):
        _apply(sheet, {"op": "choose_trump", "suit": 2})
    _apply(sheet, {"op": "choose_trump", "suit": "D"})
    data = sheet_json("x", sheet)
    assert data["trump"] == "D" and data["trump_chooser"] is None


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_pages_rules_agree_with_the_server_offline() -> None:
    start = ScoreSheet(preset("okuneff", players=4, real_cards=True), ["Ann", "Bob", "Cy", "Dee"], first_dealer=3)
    script = f"""
import {{ applyEntry }} from {json.dumps(RULES_JS.as_uri())};
let s = {json.dumps(sheet_json("x", start))};
for (const [seat, bid] of [[0, 2], [1, 4], [2, 4], [3, 1]]) s = applyEntry(s, {{op: "bid", seat, bid}});
const out = {{chooser: s.trump_chooser}};
try {{ applyEntry(s, {{op: "tricks", tricks: [2, 4, 3, 1]}}); }} catch (e) {{ out.refused = e.key; }}
s = applyEntry(s, {{op: "choose_trump", suit: "d"}});
out.trump = s.trump; out.after = s.trump_chooser;
s = applyEntry(s, {{op: "tricks", tricks: [2, 4, 3, 1]}});
out.totals = s.totals;
console.log(JSON.stringify(out));
"""
    result = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True,
                            check=True, timeout=60)
    out = json.loads(result.stdout)
    server = bid_sheet()
    server.choose_trump("D")
    server.record_tricks([2, 4, 3, 1])
    assert out == {"chooser": 1, "refused": "sk_choose_trump_first", "trump": "D", "after": None,
                   "totals": server.totals}
