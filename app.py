"""Entry point for `flask --app app` and WSGI servers."""
from companion import create_app

app = create_app()
