"""`forumwar login` and `forumwar logout`: the GM signs in to Google with their own account, or out."""
from __future__ import annotations

import click

from sheets_bridge.backends.base import BackendError


@click.command()
@click.option("--client", "client_file", default=None, type=click.Path(dir_okay=False),
              help="Файл клиента OAuth типа «Приложение для ПК» (Desktop app), скачанный в Google Cloud Console "
                   "(по умолчанию — $FORUMWAR_OAUTH_CLIENT, client_secret.json в текущей папке или клиент, "
                   "встроенный в эту сборку forumwar).")
@click.option("--no-browser", is_flag=True,
              help="Войти с другого устройства: напечатать ссылку и попросить вставить адрес, куда Google "
                   "отправит браузер (для сервера без браузера).")
@click.option("--all-files", is_flag=True,
              help="Дать forumwar доступ ко всему Google Диску, а не только к файлам, которые он создаст: нужно "
                   "лишь игре на таблицах или в папке, созданных вами вручную (new --book, --folder).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=5, show_default=True, metavar="МИНУТЫ",
              help="Сколько минут ждать ответа Google из браузера.")
def login(client_file: str | None, no_browser: bool, all_files: bool, timeout: float) -> None:
    """Войти в Google своим аккаунтом, чтобы игра создавала книги на вашем Google Диске и вела их от вас.

    Открывается браузер со входом Google; forumwar просит доступ только к файлам, которые создаст сам. После
    согласия вход хранится в папке настроек пользователя (только для вас) и обновляется сам. Выйти: forumwar
    logout. Подробно: docs/google_sheets.md и docs/google_access.md."""
    from sheets_bridge.backends.gsheets import auth
    from sheets_bridge.backends.gsheets import login as signing

    before = signing.saved_login()
    # a login widened on purpose (`--all-files`, `new --book`) stays wide; one from before the least access does not
    kept_wide = before is not None and before.whole_drive and auth.SPREADSHEETS_SCOPE not in before.scopes
    scopes = auth.WHOLE_DRIVE_SCOPES if all_files or kept_wide else auth.GM_SCOPES
    if kept_wide and not all_files:
        click.echo("Как и прежний вход, этот попросит доступ ко всему Google Диску (его давали для таблиц, созданных "
                   "вручную). Только файлы forumwar: выполните forumwar logout, затем forumwar login.")

    def paste(text: str) -> str:
        click.echo(text)
        click.echo("Ctrl+C — отменить.")
        answer: str = click.prompt("Адрес из адресной строки", prompt_suffix="\n> ")
        return answer

    try:
        done = signing.sign_in(signing.client_path(client_file), browser=not no_browser, paste=paste,
                               echo=click.echo, scopes=scopes, timeout=timeout * 60)
    except BackendError as exc:
        raise click.ClickException(str(exc)) from exc
    except (KeyboardInterrupt, click.Abort):
        click.echo("\nВход отменён: прежний вход (если был) не изменился.", err=True)
        raise click.exceptions.Exit(130) from None
    if before is not None and before.account.lower() != done.account.lower():
        click.echo(f"Прежний вход ({before.account}) заменён.")
    click.echo(f"Вход выполнен: {done.account}. Он хранится в {done.path} (файл доступен только вам).")
    reach = ("ко всему вашему Google Диску" if done.whole_drive
             else "только к файлам, которые forumwar создаст сам")
    click.echo(f"Доступ forumwar: {reach}.")
    click.echo("Новая игра от этого аккаунта: forumwar new ИГРА --ruleset … --backend gsheets; "
               "книги появятся на вашем Google Диске. Выйти: forumwar logout.")


@click.command()
def logout() -> None:
    """Выйти из Google: отозвать вход forumwar у Google и удалить его с этого компьютера."""
    from sheets_bridge.backends.gsheets import login as signing

    _, text = signing.sign_out()
    click.echo(text)
