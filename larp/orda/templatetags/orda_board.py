from django import template

from larp.orda.board_svg import board_svg

register = template.Library()
register.simple_tag(board_svg, name="orda_board")
