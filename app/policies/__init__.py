"""Income policies: the rule engine that categorises incoming invoices, and its editor.

Modules: engine (evaluate: what the policies do to one income and to its assignments),
validate (every problem of a configuration, located by its path), labels (the format's
vocabulary, its words and every message), editor (the editor's pages, a package of its own).

The engine (engine.py, validate.py, labels.py) needs no request, HTTP client or database: the
sandbox runs it on every imported invoice, the review screen runs it to say which policy
matched, and the editor previews a draft with it. Only this package's top level is imported by
the sandbox, so nothing here may import the editor or any other area; tests/test_layout.py
checks what importing it loads.
"""
