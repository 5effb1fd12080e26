from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpResponseRedirect
from django.templatetags.static import static
from django.urls import include, path

from larp.campaign import views as campaign_views



def favicon(request):
    """Browsers ask for /favicon.ico whatever the page says: send them to the game's icon."""
    return HttpResponseRedirect(static("img/favicon.svg"))


urlpatterns = [
    path("", campaign_views.home, name="home"),
    path("favicon.ico", favicon),
    path("healthz", campaign_views.healthz, name="healthz"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("g/<int:game_id>/", include("larp.turns.urls")),
    path("g/<int:game_id>/", include("larp.orders.urls")),
    path("g/<int:game_id>/", include("larp.battles.urls")),
    path("g/<int:game_id>/print/", include("larp.sheets.urls")),
    path("g/<int:game_id>/", include("larp.tables.urls")),
    path("g/<int:game_id>/rp/", include("larp.redplains.urls")),
    path("g/<int:game_id>/", include("larp.dice.urls")),
    path("g/<int:game_id>/orda/", include("larp.orda.urls")),
    path("g/<int:game_id>/tr/", include("larp.tactical.urls")),
    path("g/<int:game_id>/ord/", include("larp.ordonnance.urls")),
    path("g/<int:game_id>/", include("larp.bridge.urls")),
    path("g/<int:game_id>/files/", include("larp.gamefile.urls")),
    path("g/<int:game_id>/rehearsal/", include("larp.rehearsal.urls")),
    path("editor/", include("larp.editor.urls")),
    path("", include("larp.tablet.urls")),
    path("admin/", admin.site.urls),
]
