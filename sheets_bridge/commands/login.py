"""`forumwar login` and `forumwar logout`: the GM signs in to Google with their own account, or out."""
from __future__ import annotations

import click

from sheets_bridge.backends.base import BackendError


@click.command()
@click.option("--client", "client_file", default=None, type=click.Path(dir_okay=False),
              help="Файл клиента OAuth типа «Приложение для ПК» (Desktop app), скачанный в Google Cloud Console "
                   "(по умолчанию — $FORUMWAR_OAUTH_CLIENT или client_secret.json).")
@click.option("--no-browser", is_flag=True,
              help="Войти с другого устройства: напечатать ссылку и попросить вставить адрес, куда Google "
                   "отправит браузер (для сервера без браузера).")
def login(client_file: str | None, no_browser: bool) -> None:
    """Войти в Google своим аккаунтом, чтобы игра создавала книги на вашем Google Диске и вела их от вас.

    Открывается браузер со входом Google; после согласия forumwar хранит вход в папке настроек
    пользователя (только для вас) и сам его обновляет. Выйти: forumwar logout. Подробно: docs/google_sheets.md."""
    from sheets_bridge.backends.gsheets import login as signing

    before = signing.saved_login()

    def paste(text: str) -> str:
        click.echo(text)
        answer: str = click.prompt("Адрес из адресной строки", prompt_suffix="\n> ")
        return answer

    try:
        done = signing.sign_in(signing.client_path(client_file), browser=not no_browser, paste=paste,
                               echo=click.echo)
    except BackendError as exc:
        raise click.ClickException(str(exc)) from exc
    if before is not None and before.account.lower() != done.account.lower():
        click.echo(f"Прежний вход ({before.account}) заменён.")
    click.echo(f"Вход выполнен: {done.account}. Он хранится в {done.path} (файл доступен только вам).")
    click.echo("Новая игра от этого аккаунта: forumwar new ИГРА --ruleset … --backend gsheets --identity gm; "
               "книги появятся на вашем Google Диске. Выйти: forumwar logout.")


@click.command()
def logout() -> None:
    """Выйти из Google: отозвать вход forumwar у Google и удалить его с этого компьютера."""
    from sheets_bridge.backends.gsheets import login as signing

    _, text = signing.sign_out()
    click.echo(text)
