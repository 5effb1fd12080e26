"""Project-wide request handling that belongs to no single app."""
from django.http import Http404
from django.views.defaults import page_not_found


class OutOfRangeIdMiddleware:
    """An id in the URL too large for the database (SQLite: above 2**63 - 1) names nothing: 404, not 500.

    PostgreSQL compares such a number and finds no row; SQLite's driver raises
    OverflowError before asking. Found by tests/fuzz (e.g. /g/9223372036854775808/...).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, OverflowError):
            return page_not_found(request, Http404())
        return None
