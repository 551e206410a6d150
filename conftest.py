"""Test set-up shared by the tests and the doctests: English messages, helpers importable."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "tests"))
os.environ["OHHELL_LANG"] = "en"

from ohhell.i18n import set_language  # noqa: E402

set_language("en")
