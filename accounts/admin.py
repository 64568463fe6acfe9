from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.forms import StaffSignInForm
from accounts.models import User

# The admin's sign-in counts against the same limits as every other sign-in.
admin.site.login_form = StaffSignInForm


@admin.register(User)
class PlayerAdmin(UserAdmin[User]):
    list_display = (
        "username",
        "display_name",
        "email",
        "is_staff",
        "is_guest",
        "date_joined",
        "last_login",
    )
    list_filter = (*UserAdmin.list_filter, "is_guest")
    search_fields = ("username", "display_name", "email")
    ordering = ("-date_joined",)
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Player", {"fields": ("display_name", "is_guest", "deleted_at")}),
    )
    add_fieldsets = (
        *(UserAdmin.add_fieldsets or ()),
        ("Player", {"fields": ("display_name",)}),
    )
