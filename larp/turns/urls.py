from django.urls import path

from larp.turns import status_views, views

app_name = "turns"
urlpatterns = [
    path("clock", views.clock_view, name="clock"),
    path("clock/stream", views.clock_stream, name="clock_stream"),
    path("audit/", views.audit_log, name="audit"),
    path("worker-status", status_views.worker_status_view, name="worker_status"),
]
