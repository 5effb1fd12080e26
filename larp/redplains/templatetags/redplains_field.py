from django import template

from larp.redplains.field_svg import field

register = template.Library()
register.simple_tag(field, name="field_svg")
