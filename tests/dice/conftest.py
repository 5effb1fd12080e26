"""Games whose dice seeds are long and distinctive, so a test can tell whether any page or paper shows them."""
import pytest

from larp.scenarios.loader import load_scenario

SECRET = 5_813_077_209_441_263
TABLE_SECRET = 6_102_334_871_950_117


@pytest.fixture
def latin_game(db):
    """The console flow's game (tests/battles: the `played` fixture) with a seed no page may show."""
    return load_scenario("latin-east-1204", title="Латинский Восток", seed=SECRET)
