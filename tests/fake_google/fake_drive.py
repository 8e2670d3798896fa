"""Drive v3 of the fake: files, permissions (direct, by domain, by link, by shared-drive membership)
and the files and permissions endpoints, as `DriveFiles`, mixed into FakeGoogle (which holds the state)."""
from __future__ import annotations

import copy
import csv
import hashlib
import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from tests.fake_google.fake_errors import ApiError, sheets_error
from tests.fake_google.fake_identity import Identity, IdSource
from tests.fake_google.fake_oauth import caller_app
from tests.fake_google.fake_sheets import Spreadsheet

MEDIA_KEY = "__media__"        # an upload's bytes in the request body (fake_google._payload)
SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet"
FOLDER_MIME = "application/vnd.google-apps.folder"
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
RANK = {"reader": 1, "commenter": 2, "writer": 3, "fileOrganizer": 4, "organizer": 5, "owner": 6}


def drive_error(code: int, message: str, reason: str, domain: str = "global", **where: str) -> ApiError:
    """An error in the Drive v3 shape: {"error": {code, message, errors: [...]}}."""
    item = {"message": message, "domain": domain, "reason": reason, **where}
    return ApiError(code, {"error": {"code": code, "message": message, "errors": [item]}})


def _file_not_found(file_id: str) -> ApiError:
    return drive_error(404, f"File not found: {file_id}.", "notFound", location="fileId",
                       locationType="parameter")


@dataclass
class DriveFile:
    id: str
    name: str
    mime_type: str
    owner: str | None
    parents: list[str]
    drive_id: str | None
    created: str
    modified: str
    permissions: dict[str, dict] = field(default_factory=dict)
    spreadsheet: Spreadsheet | None = None
    app_properties: dict[str, str] = field(default_factory=dict)
    content: bytes | None = None            # an uploaded file's bytes (a PNG)
    searchable_at: float = float("-inf")   # on the fake's clock: when files.list starts to show it
    app: str | None = None                 # the OAuth client that created it (a drive.file token sees only its own)


class DriveFiles:
    """Drive's files and permissions over FakeGoogle's state; its methods run under FakeGoogle's lock."""

    files: dict[str, DriveFile]
    drives: dict[str, dict[str, str]]
    identities: dict[str, Identity]
    notifications: list[tuple[str, str, str]]
    ids: IdSource
    locale: str
    clock: Callable[[], float]
    search_lag: float
    _seconds: int

    # -- state helpers -------------------------------------------------------------------------
    def _now(self) -> str:
        self._seconds += 1
        minutes, seconds = divmod(self._seconds, 60)
        hours, minutes = divmod(minutes, 60)
        return f"2024-01-01T{hours % 24:02d}:{minutes:02d}:{seconds:02d}.000Z"

    def _new_file(self, name: str, mime: str, owner: str | None, parents: list[str]) -> DriveFile:
        drive_id = None
        for parent in parents:
            if parent in self.files:
                drive_id = self.files[parent].drive_id
        file_id = self.ids.text()
        file = DriveFile(file_id, name, mime, None if drive_id else owner, parents, drive_id,
                         self._now(), self._now(), searchable_at=self.clock() + self.search_lag)
        if mime == SPREADSHEET_MIME:
            file.spreadsheet = Spreadsheet(file_id, name, file.owner, self.ids, locale=self.locale)
        if file.owner:
            file.permissions[self._perm_id(file.owner)] = self._perm("user", "owner", file.owner)
        self.files[file_id] = file
        return file

    @staticmethod
    def _perm_id(email: str | None, kind: str = "user") -> str:
        if kind == "anyone":
            return "anyoneWithLink"
        digest = hashlib.sha256((email or "").lower().encode()).hexdigest()
        return str(int(digest[:16], 16))[:20]

    def _perm(self, kind: str, role: str, email: str | None) -> dict:
        perm: dict[str, Any] = {"kind": "drive#permission", "id": self._perm_id(email, kind), "type": kind,
                                "role": role}
        if kind in ("user", "group"):
            perm.update({"emailAddress": email, "displayName": (email or "").split("@")[0]})
        elif kind == "domain":
            perm["domain"] = email
        perm.update({"deleted": False, "pendingOwner": False})
        return perm

    def _grant(self, file: DriveFile, kind: str, role: str, email: str | None) -> dict:
        perm = self._perm(kind, role, email)
        existing = file.permissions.get(perm["id"])
        if existing and existing["role"] == "owner":
            return existing
        file.permissions[perm["id"]] = perm
        return perm

    def role_of(self, file: DriveFile, email: str) -> str | None:
        """The caller's effective role on a file: direct, by domain, by link, or by drive membership."""
        roles = []
        if file.owner == email:
            roles.append("owner")
        for perm in file.permissions.values():
            if perm["type"] == "user" and perm.get("emailAddress", "").lower() == email.lower():
                roles.append(perm["role"])
            elif perm["type"] == "anyone":
                roles.append(perm["role"])
            elif perm["type"] == "domain" and email.lower().endswith("@" + perm.get("domain", "").lower()):
                roles.append(perm["role"])
        if file.drive_id and email in self.drives.get(file.drive_id, {}):
            roles.append(self.drives[file.drive_id][email])
        return max(roles, key=RANK.__getitem__) if roles else None

    # -- Drive v3 ---------------------------------------------------------------------------------
    def _visible(self, file_id: str, who: str) -> DriveFile:
        file = self.files.get(file_id)
        if file is None or self.role_of(file, who) is None:
            raise _file_not_found(file_id)
        return file

    def _file_view(self, file: DriveFile, who: str) -> dict:
        role = self.role_of(file, who) or "reader"
        view = {"kind": "drive#file", "id": file.id, "name": file.name, "mimeType": file.mime_type,
                "parents": list(file.parents), "createdTime": file.created, "modifiedTime": file.modified,
                "capabilities": {"canEdit": RANK[role] >= RANK["writer"],
                                 "canShare": RANK[role] >= RANK["writer"]},
                "ownedByMe": file.owner == who}
        if file.drive_id:
            view["driveId"] = file.drive_id
        if file.app_properties:
            view["appProperties"] = dict(file.app_properties)
        return view

    def _drive(self, op: str, path: str, query: dict, body: Any, who: str, file_id: str) -> Any:
        one = lambda name, default=None: query.get(name, [default])[0]  # noqa: E731
        brief = "kind,id,name,mimeType"
        if op == "drive.about.get":
            if not one("fields"):
                raise drive_error(400, "The 'fields' parameter is required for this method.", "required",
                                  location="fields", locationType="parameter")
            return {"kind": "drive#about", "user": {"kind": "drive#user", "displayName": who.split("@")[0],
                                                    "me": True, "permissionId": self._perm_id(who),
                                                    "emailAddress": who}}
        if op == "drive.files.create":
            body = body or {}
            parents = body.get("parents") or []
            caller = caller_app()
            for parent in parents:
                folder = self.files.get(parent)
                role = self.role_of(folder, who) if folder else None
                if folder is None or role is None or (caller.files_only and folder.app != caller.client_id):
                    raise _file_not_found(parent)
                if RANK[role] < RANK["writer"]:
                    raise drive_error(403, "The user does not have sufficient permissions for this file.",
                                      "insufficientFilePermissions")
            in_drive = any(self.files[p].drive_id for p in parents)
            if not in_drive and not self.identities[who].storage:
                raise drive_error(403, "The user's Drive storage quota has been exceeded.", "storageQuotaExceeded",
                                  domain="usageLimits")
            file = self._new_file(body.get("name") or "Untitled", body.get("mimeType") or "", who, parents)
            file.app = caller.client_id
            file.app_properties = {str(k): str(v) for k, v in (body.get("appProperties") or {}).items()}
            file.content = body.get(MEDIA_KEY)
            return self._brief(file, who, query, brief)
        if op == "drive.files.list":
            # Drive's search is eventually consistent: a new file shows only `search_lag` seconds after
            # it was made (a get by its id sees it at once).
            now = self.clock()
            caller = caller_app()
            files = [self._file_view(f, who) for f in self.files.values()
                     if self.role_of(f, who) is not None and (not caller.files_only or f.app == caller.client_id)
                     and f.searchable_at <= now and _matches(f, one("q", "") or "")]
            if not one("fields"):
                files = [{k: f[k] for k in brief.split(",")} for f in files]
            return {"kind": "drive#fileList", "incompleteSearch": False, "files": files}
        file = self._visible(file_id, who)
        role = self.role_of(file, who) or "reader"
        if op == "drive.files.get":
            return self._brief(file, who, query, brief)
        if op == "drive.files.update":
            if RANK[role] < RANK["writer"]:
                raise drive_error(403, "The user does not have sufficient permissions for this file.",
                                  "insufficientFilePermissions")
            body = body or {}
            if MEDIA_KEY in body:
                file.content = body[MEDIA_KEY]
            if body.get("name"):
                file.name = body["name"]
            file.modified = self._now()
            return self._brief(file, who, query, brief)
        if op == "drive.files.delete":
            if RANK[role] < RANK["fileOrganizer"] and role != "owner":
                raise drive_error(403, "The user does not have sufficient permissions for this file.",
                                  "insufficientFilePermissions")
            del self.files[file.id]
            return None
        if op == "drive.files.copy":
            copied = self._new_file((body or {}).get("name") or f"Copy of {file.name}", file.mime_type, who,
                                    (body or {}).get("parents") or [])
            copied.app = caller_app().client_id
            if file.spreadsheet is not None:
                copied.spreadsheet = copy.deepcopy(file.spreadsheet)
                copied.spreadsheet.id = copied.id
                copied.spreadsheet.owner = copied.owner
                copied.spreadsheet.properties["title"] = copied.name
            return self._brief(copied, who, query, brief)
        if op == "drive.files.export":
            return self._export(file, one("mimeType", ""))
        return self._permissions(op, path, query, body or {}, who, file, role)

    def _brief(self, file: DriveFile, who: str, query: dict, brief: str) -> dict:
        view = self._file_view(file, who)
        return view if query.get("fields", [None])[0] else {k: view[k] for k in brief.split(",")}

    def _permissions(self, op: str, path: str, query: dict, body: dict, who: str, file: DriveFile,
                     role: str) -> Any:
        one = lambda name, default=None: query.get(name, [default])[0]  # noqa: E731
        if op == "drive.permissions.list":
            perms = [copy.deepcopy(p) for p in file.permissions.values()]
            for email, member_role in self.drives.get(file.drive_id or "", {}).items():
                perm = self._perm("user", member_role, email)
                perm["permissionDetails"] = [{"permissionType": "member", "role": member_role, "inherited": True,
                                              "inheritedFrom": file.drive_id}]
                perms.append(perm)
            if not one("fields"):
                perms = [{k: p[k] for k in ("kind", "id", "type", "role")} for p in perms]
            return {"kind": "drive#permissionList", "permissions": perms}
        if RANK[role] < RANK["writer"]:
            raise drive_error(403, "The user does not have sufficient permissions for this file.",
                              "insufficientFilePermissions")
        if op == "drive.permissions.create":
            kind, new_role = body.get("type"), body.get("role")
            if kind not in ("user", "group", "domain", "anyone") or new_role not in RANK:
                raise drive_error(400, "Invalid permission type or role.", "invalid")
            grantee = body.get("emailAddress") or body.get("domain")
            notify = str(one("sendNotificationEmail", "true")).lower() == "true"
            if kind == "user":
                ident = self.identities.get(grantee or "")
                if ident is not None and not ident.google_account and not notify:
                    message = (f'Bad Request. User message: "You are trying to invite {grantee}. Since there is no '
                               'Google account associated with this email address, you must check the "Notify '
                               'people" box to invite this recipient."')
                    raise drive_error(400, message, "invalidSharingRequest")
                if notify:
                    self.notifications.append((grantee or "", file.id, one("emailMessage", "") or ""))
            perm = self._grant(file, kind, new_role, grantee)
            return {k: perm[k] for k in ("kind", "id", "type", "role")}
        perm_id = unquote(path.rsplit("/", 1)[-1])
        if perm_id not in file.permissions:
            raise drive_error(404, f"Permission not found: {perm_id}.", "notFound", location="permissionId",
                              locationType="parameter")
        perm = file.permissions[perm_id]
        if op == "drive.permissions.get":
            return copy.deepcopy(perm)
        if perm["role"] == "owner":
            raise drive_error(403, "The owner of a file cannot be removed or downgraded.", "cannotRemoveOwner")
        if op == "drive.permissions.delete":
            del file.permissions[perm_id]
            return None
        if op == "drive.permissions.update":
            if body.get("role") not in RANK:
                raise drive_error(400, "Invalid role.", "invalid")
            perm["role"] = body["role"]
            return {k: perm[k] for k in ("kind", "id", "type", "role")}
        raise sheets_error(404, "Not Found")

    def _export(self, file: DriveFile, mime: str) -> tuple[int, dict, bytes]:
        book = file.spreadsheet
        if book is None:
            raise drive_error(403, "Export only supports Docs Editors files.", "fileNotExportable")
        if mime == "text/csv":
            first = sorted(book.sheets, key=lambda s: s.properties["index"])[0]
            values = book.values_get(f"'{first.title}'").get("values", [])
            out = io.StringIO()
            csv.writer(out, lineterminator="\n").writerows(values)
            return 200, {"Content-Type": "text/csv"}, out.getvalue().rstrip("\n").encode("utf-8")
        if mime == XLSX_MIME:
            from tests.fake_google.xlsx_export import spreadsheet_to_xlsx
            return 200, {"Content-Type": XLSX_MIME}, spreadsheet_to_xlsx(book)
        raise drive_error(400, f"The requested conversion is not supported: {mime}", "badRequest")


def _matches(file: DriveFile, q: str) -> bool:
    """The subset of Drive's query language gspread and the bridge send: mimeType, name, parents,
    appProperties and trashed (the fake has no trash)."""
    app_property = r"appProperties\s+has\s+\{\s*key\s*=\s*'([^']*)'\s+and\s+value\s*=\s*'([^']*)'\s*\}"
    for key, value in re.findall(app_property, q):
        if file.app_properties.get(key) != value:
            return False
    for key, value in re.findall(r'(mimeType|name)\s*=\s*"((?:[^"\\]|\\.)*)"', q):
        if (file.mime_type if key == "mimeType" else file.name) != value:
            return False
    for parent in re.findall(r'"([^"]+)"\s+in\s+parents', q):
        if parent not in file.parents:
            return False
    return True
