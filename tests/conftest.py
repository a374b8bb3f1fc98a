import gc
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout under test, before any installed copy


@pytest.fixture(scope="module")
def own_heap():
    """The objects alive before a module's tests run are moved out of the collector's view
    (gc.freeze) until they end: introspect's walks over every live object (live_nodes,
    saved_bytes) then see what these tests made, not the whole suite's heap, and a graph left
    by an earlier module cannot fail them."""
    gc.freeze()
    yield
    gc.unfreeze()
