"""The app's URLs plus one view that fails, to see the server-error page a player would get."""
from django.urls import path

from larp.urls import urlpatterns as app_urlpatterns


def broken(request):
    raise RuntimeError("a bug")


urlpatterns = [path("broken-for-test", broken), *app_urlpatterns]
