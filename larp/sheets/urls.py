from django.urls import path

from larp.sheets import views

app_name = "sheets"
urlpatterns = [
    path("", views.index, name="index"),
    path("request/", views.request_document, name="request"),
    path("request/<slug:kind>/", views.request_document, name="request_kind"),
    path("jobs/<int:job_id>/", views.job_status, name="job"),
    path("jobs/<int:job_id>/pdf", views.download, name="download"),
]
