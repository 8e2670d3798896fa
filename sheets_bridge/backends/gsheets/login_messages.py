"""Google's refusals during `forumwar login` as Russian messages: what happened and what to do, with Google's
error code for a search, never its English description or a Python exception's text."""
from __future__ import annotations

from typing import Any

from sheets_bridge.backends.gsheets.auth import SETUP_DOC
from sheets_bridge.backends.gsheets.client_file import CLIENT_STEPS

_AGAIN = "Выполните `forumwar login` снова"
# RFC 6749 §4.1.2.1 and §5.2 error codes, and Google's own, as the GM should read them
_TEXTS = {
    "invalid_client": ("Google не знает этот клиент OAuth: его удалили или файл от другого проекта. Скачайте файл "
                       f"клиента заново: {CLIENT_STEPS}."),
    "unauthorized_client": ("Google не разрешает этому клиенту OAuth такой вход: нужен клиент типа «Приложение для "
                            f"ПК» (Desktop app). Создайте такой: {CLIENT_STEPS}."),
    "access_denied": (f"Вы отказались дать forumwar доступ на экране Google. {_AGAIN} и нажмите «Продолжить» "
                      "(Continue)."),
    "invalid_grant": (f"Код входа устарел или уже использован: Google принимает его один раз и недолго. {_AGAIN} "
                      "и завершите вход сразу, вставляя адрес только из этого входа."),
    "redirect_uri_mismatch": ("Google не вернул вход на этот компьютер: клиент OAuth не того типа. Нужен клиент "
                              f"«Приложение для ПК» (Desktop app): {CLIENT_STEPS}."),
    "invalid_scope": (f"Google не дал запрошенный доступ: проект клиента OAuth его не разрешает. {_AGAIN}; если "
                      f"ошибка повторится, сверьте экран согласия с {SETUP_DOC}, «Вход мастера»."),
    "admin_policy_enforced": ("Администратор вашего Google Workspace запрещает этому приложению вход. Выберите при "
                              "входе обычный аккаунт Google или попросите администратора разрешить forumwar."),
    "org_internal": ("Это приложение пускает только аккаунты своей организации Google Workspace. Выберите при входе "
                     "аккаунт этой организации или выполните `forumwar login --client ФАЙЛ` со своим клиентом."),
    "mismatching_state": (f"Ответ Google пришёл от другого входа. {_AGAIN} и завершите вход в последней открытой "
                          "ссылке."),
    "temporarily_unavailable": f"Google временно не может выполнить вход. Подождите несколько минут. {_AGAIN}.",
    "server_error": f"У Google произошёл сбой при входе. Подождите несколько минут. {_AGAIN}.",
}


def oauth_error_text(err: Any) -> str:
    """An oauthlib OAuth2Error (Google's refusal at the consent or the token exchange) in Russian."""
    code = str(getattr(err, "error", "") or "")
    text = _TEXTS.get(code)
    if text is None:
        text = (f"Google не завершил вход. {_AGAIN}; если ошибка повторится, сверьте настройки клиента OAuth с "
                f"{SETUP_DOC}, «Вход мастера».")
    return f"{text} (Код Google: {code}.)" if code else text


__all__ = ["oauth_error_text"]
