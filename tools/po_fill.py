"""Fill translations into a locale's messages.po from a JSON object {msgid: translation}."""
import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po


def fill(locale: str, source: str) -> int:
    """Set translations for known msgids; return how many were set."""
    path = Path("translations") / locale / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=locale)
    pairs = json.loads(Path(source).read_text(encoding="utf-8"))
    count = 0
    for msgid, text in pairs.items():
        message = catalog.get(msgid)
        if message is None:
            print(f"not in catalog (extract first?): {msgid!r}", file=sys.stderr)
            continue
        message.string = _forms(message, text, catalog.num_plurals)
        message.flags.discard("fuzzy")
        count += 1
    catalog.fuzzy = False
    with path.open("wb") as fh:
        write_po(fh, catalog)  # as `pybabel update` writes, so `update --check` stays clean
    return count


def _forms(message, text, count: int):
    """Plural messages need every form; Hungarian keeps the singular after numerals."""
    if not message.pluralizable:
        return text
    forms = list(text) if isinstance(text, list | tuple) else [text]
    return tuple((forms + [forms[-1]] * count)[:count])


if __name__ == "__main__":
    print(fill(sys.argv[1], sys.argv[2]), "translations set")
