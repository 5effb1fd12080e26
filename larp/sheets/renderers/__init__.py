"""One renderer class per printed document; each takes plain data and returns (filename, mimetype, bytes)."""
from larp.sheets.renderers.base import PAPERS_MM, Renderer
from larp.sheets.renderers.battle_sheet import BattleSheetRenderer
from larp.sheets.renderers.map_sheet import MapRenderer
from larp.sheets.renderers.order_form import OrderFormRenderer
from larp.sheets.renderers.protocol import ProtocolRenderer
from larp.sheets.renderers.turn_results import TurnResultsRenderer

__all__ = ["PAPERS_MM", "BattleSheetRenderer", "MapRenderer", "OrderFormRenderer", "ProtocolRenderer", "Renderer",
           "TurnResultsRenderer"]
