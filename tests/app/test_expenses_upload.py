"""Uploading files as expenses: content checked before sending, refusals explained (Bookdesk's
and the upstream's alike), a double submit uploads once."""
from __future__ import annotations

import io
import re

import pytest

from app import files as upload_module
from app.upstream import Unavailable
from app.upstream import expenses as expense_api
from tests.app.conftest import csrf_token, signed_in
from tests.app.expenses_helpers import FAKE_PDF, PDF, PNG, XML, creates


def _form(client, company) -> tuple[str, dict]:
    path = signed_in(client, company, "expenses/") + "new"
    html = client.get(path).get_data(as_text=True)
    key = re.search(r'name="form_key" value="([^"]+)"', html).group(1)
    return path, {"csrf_token": csrf_token(html), "form_key": key}


def _files(*named: tuple[str, bytes]) -> list:
    return [(io.BytesIO(content), name) for name, content in named]


def test_a_real_pdf_becomes_an_expense_and_lands_on_its_page(client, company, api,
                                                             sandbox_log):
    path, data = _form(client, company)
    response = client.post(path, data={**data, "files": _files(("szamla.pdf", PDF))},
                           content_type="multipart/form-data")
    assert response.status_code == 303
    sent = creates(sandbox_log, company.id)
    assert len(sent) == 1 and sent[0]["status"] == 201
    assert sent[0]["body"]["files"]["file"]["filename"] == "szamla.pdf"
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "1 file was uploaded as a new expense." in html and 'id="artifact-pdf"' in html


def test_several_files_become_several_expenses(client, company, api, sandbox_log):
    path, data = _form(client, company)
    files = _files(("a.pdf", PDF), ("b.png", PNG), ("c.xml", XML))
    response = client.post(path, data={**data, "files": files},
                           content_type="multipart/form-data")
    assert response.status_code == 303 and response.headers["Location"].endswith("/expenses/")
    assert [e["status"] for e in creates(sandbox_log, company.id)] == [201, 201, 201]


def test_a_fake_pdf_is_refused_before_sending_with_the_reason(client, company, api,
                                                              sandbox_log):
    path, data = _form(client, company)
    response = client.post(path, data={**data, "files": _files(("fake.pdf", FAKE_PDF))},
                           content_type="multipart/form-data")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "<strong>fake.pdf</strong>: This file is not a real PDF" in html
    assert "Nothing was uploaded." in html
    assert creates(sandbox_log, company.id) == []
    picker = re.search(r'<input class="field__input" type="file"[^>]*>', html, re.S).group(0)
    assert 'aria-describedby="upload-errors files-help"' in picker, "the reason is the field's"


def test_one_refused_file_stops_the_whole_submit(client, company, api, sandbox_log):
    path, data = _form(client, company)
    files = _files(("good.pdf", PDF), ("bad.png", b"GIF89a not a png"))
    response = client.post(path, data={**data, "files": files},
                           content_type="multipart/form-data")
    assert response.status_code == 400 and "bad.png" in response.get_data(as_text=True)
    assert creates(sandbox_log, company.id) == []


def test_the_upstreams_own_refusal_is_shown_the_same_way(client, company, api, sandbox_log,
                                                        monkeypatch):
    # An upstream stricter than Bookdesk's own check: the file gets through to it.
    monkeypatch.setattr(upload_module, "sniff", lambda content: "pdf")
    path, data = _form(client, company)
    response = client.post(path, data={**data, "files": _files(("fake.pdf", FAKE_PDF))},
                           content_type="multipart/form-data")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "<strong>fake.pdf</strong>: Upload a valid PDF, JPEG, PNG or XML file." in html
    assert [e["status"] for e in creates(sandbox_log, company.id)] == [400]


def test_a_double_submit_uploads_once_and_both_land_on_the_same_expense(client, company, api,
                                                                        sandbox_log):
    path, data = _form(client, company)
    first = client.post(path, data={**data, "files": _files(("a.pdf", PDF))},
                        content_type="multipart/form-data")
    second = client.post(path, data={**data, "files": _files(("a.pdf", PDF))},
                         content_type="multipart/form-data")
    assert second.status_code == 303
    assert second.headers["Location"] == first.headers["Location"]
    assert len(creates(sandbox_log, company.id)) == 1
    assert "already sent" in client.get(second.headers["Location"]).get_data(as_text=True)


def test_no_file_chosen_is_explained(client, company, api, sandbox_log):
    path, data = _form(client, company)
    response = client.post(path, data=data, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Choose at least one file." in response.get_data(as_text=True)
    assert creates(sandbox_log, company.id) == []


def test_htmx_upload_redirects_on_success_and_swaps_the_refusal(client, company, api):
    path, data = _form(client, company)
    headers = {"HX-Request": "true"}
    ok = client.post(path, data={**data, "files": _files(("a.pdf", PDF))}, headers=headers,
                     content_type="multipart/form-data")
    assert ok.status_code == 204 and "/expenses/" in ok.headers["HX-Redirect"]
    _path, fresh = _form(client, company)
    bad = client.post(path, data={**fresh, "files": _files(("x.pdf", FAKE_PDF))},
                      headers=headers, content_type="multipart/form-data")
    html = bad.get_data(as_text=True)
    assert bad.status_code == 400 and html.lstrip().startswith('<section class="panel upload"')
    assert "not a real PDF" in html


def test_too_many_files_at_once_are_refused_before_sending(client, company, api, sandbox_log):
    path, data = _form(client, company)
    files = _files(*[(f"f{n}.pdf", PDF) for n in range(upload_module.MAX_FILES + 1)])
    response = client.post(path, data={**data, "files": files},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Send at most 20 files at once." in response.get_data(as_text=True)
    assert creates(sandbox_log, company.id) == []


def test_a_failed_upload_can_be_sent_again_with_the_same_form(client, company, api,
                                                             sandbox_log, monkeypatch):
    path, data = _form(client, company)
    with monkeypatch.context() as patch:
        patch.setattr(upload_module, "sniff", lambda content: "pdf")
        client.post(path, data={**data, "files": _files(("fake.pdf", FAKE_PDF))},
                    content_type="multipart/form-data")
    again = client.post(path, data={**data, "files": _files(("real.pdf", PDF))},
                        content_type="multipart/form-data")
    assert again.status_code == 303
    assert [e["status"] for e in creates(sandbox_log, company.id)] == [400, 201]


def test_the_upload_says_every_limit_a_send_is_held_to(app, client, company):
    base = signed_in(client, company, "expenses/")
    html = client.get(base + "new", headers={"Accept-Language": "en"}).get_data(as_text=True)
    total = app.config["MAX_CONTENT_LENGTH"] // 1048576
    assert (f"Up to {upload_module.MAX_FILES} files at once, 10 MB each and {total} MB "
            "together.") in html


def _upload(client, company, *named: tuple[str, bytes], **extra):
    path, data = _form(client, company)
    return client.post(path, data={**data, **extra, "files": _files(*named)},
                       content_type="multipart/form-data", headers={"Accept-Language": "en"})


def test_a_file_an_expense_already_holds_is_held_back_with_a_link_to_it(client, company, api,
                                                                       sandbox_log):
    first = _upload(client, company, ("szamla.pdf", PDF))
    expense_id = first.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    again = _upload(client, company, ("szamla.pdf", PDF), ("uj.png", PNG))
    html = again.get_data(as_text=True)
    assert again.status_code == 200
    assert [e["body"]["files"]["file"]["filename"] for e in creates(sandbox_log, company.id)] \
        == ["szamla.pdf", "uj.png"], "the held file is not sent a second time"
    held = html.split('id="upload-held"')[1].split("</div>")[0]
    assert "szamla.pdf" in held and f"/expenses/{expense_id}" in held and "uj.png" not in held
    assert 'name="again"' in html and "1 file was uploaded as a new expense" in html


def test_upload_again_sends_a_held_file_and_another_name_or_size_is_no_duplicate(
        client, company, api, sandbox_log):
    _upload(client, company, ("szamla.pdf", PDF))
    _upload(client, company, ("szamla.pdf", PDF), again="y")
    _upload(client, company, ("masik.pdf", PDF))
    _upload(client, company, ("szamla.pdf", PDF + b"\n% one more line\n"))
    assert [e["status"] for e in creates(sandbox_log, company.id)] == [201, 201, 201, 201]


def test_a_failed_duplicate_check_sends_the_files_and_says_so(client, company, api, faults,
                                                              sandbox_log):
    faults.add(path="/2/expenses/artifact-search*", kind="status", status=503)
    response = _upload(client, company, ("szamla.pdf", PDF))
    assert response.status_code == 200
    assert 'id="upload-unchecked"' in response.get_data(as_text=True)
    assert [e["status"] for e in creates(sandbox_log, company.id)] == [201]


def test_one_failed_search_still_holds_back_the_files_found(client, company, api, sandbox_log,
                                                            monkeypatch):
    _upload(client, company, ("szamla.pdf", PDF))
    search = expense_api.same_file

    def failing_for_the_png(api_client, filename, size):
        # The sandbox's faults match paths, not bodies: this fails one file's search alone.
        if filename == "uj.png":
            raise Unavailable("injected", status=502)
        return search(api_client, filename, size)
    monkeypatch.setattr(expense_api, "same_file", failing_for_the_png)
    response = _upload(client, company, ("uj.png", PNG), ("szamla.pdf", PDF))
    html = response.get_data(as_text=True)
    assert [e["body"]["files"]["file"]["filename"] for e in creates(sandbox_log, company.id)] \
        == ["szamla.pdf", "uj.png"], "the file found is held, the unchecked one is sent"
    assert 'id="upload-held"' in html and 'id="upload-unchecked"' in html


def test_a_lost_answer_after_a_held_file_is_looked_for_among_the_files_sent(
        client, company, api, faults, sandbox_log):
    _upload(client, company, ("szamla.pdf", PDF))
    faults.add(path="/2/expenses/create*", method="POST", kind="reset_after", count=1)
    response = _upload(client, company, ("szamla.pdf", PDF), ("uj.png", PNG))
    text = response.get_data(as_text=True) if response.status_code != 303 else \
        client.get(response.headers["Location"]).get_data(as_text=True)
    assert "uj.png was uploaded as a new expense" in text and "szamla.pdf was uploaded" not in text
    assert len(creates(sandbox_log, company.id)) == 2


class _Answering:
    """A client stub answering artifact-search with a fixed body (its shape is not described
    by the live API, so Bookdesk must read what it can and no more)."""

    company_id = 1

    def __init__(self, body):
        self.body = body

    def post(self, path, json=None):
        return self.body


def test_a_duplicate_search_answer_of_an_unknown_shape_counts_as_no_answer():
    assert expense_api.same_file(_Answering({"results": [{"expense_id": 7}]}), "a.pdf", 1) \
        == [{"expense_id": 7}]
    assert expense_api.same_file(_Answering([{"expense_id": "7"}, 3]), "a.pdf", 1) == []
    for body in ({"expense_id": 7}, 3, True, None):
        with pytest.raises(Unavailable):
            expense_api.same_file(_Answering(body), "a.pdf", 1)
