"""One import process: `python -m companion.import_worker` (companion/pool_worker.py says how
it is run and spoken to), started by the server's pool of them (companion/web/documents.py).

It takes what companion.importing.job sends (the upload's bytes and what the check needs of
the server), reads the JSON as the request would have (the API body's rules, or the import
page's), checks and replays the export (companion.importing.checked) and answers the pickled
result, or the refusal's message, field, code, status and fields; nothing of it is stored
here."""
from __future__ import annotations

import pickle

from .games.errors import RuleError
from .pool_worker import main


def answer(data: bytes) -> bytes:
    from .importing import checked
    from .web.api import body_json
    from .web.jsoncheck import loads_checked

    task = pickle.loads(data)
    text, field = task["upload"]
    try:
        doc = body_json(text) if field is None else loads_checked(text, field)
        done = checked(doc, task)
    except RuleError as err:
        done = {"refused": (err.message, err.field, err.code, err.status, err.fields)}
    return pickle.dumps(done, pickle.HIGHEST_PROTOCOL)


def warmed():
    """``answer``, with the modules it needs loaded and every game's declarations built."""
    from .exports import import_body

    import_body()
    answer(pickle.dumps({"upload": (b"{}", None)}))
    return answer


if __name__ == "__main__":
    main(warmed)
