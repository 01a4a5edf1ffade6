"""Artifacts (spec 2.11, 4.9, upstream-notes): records, signed token-free expiring links."""
import base64
import time
from datetime import UTC, datetime

import expense_support
import pytest
import requests
from expense_support import PDF, PNG, XML, artifact, make_expense

ecat = expense_support.ecat  # a fixture, found by name
other_api = expense_support.other_api  # a fixture, found by name


def _records(api, ids, kind="expense", method="GET"):
    path = f"/1/artifacts/{kind}/"
    if method == "POST":
        resp = api.post(path, json={"ids": ids})
    else:
        resp = api.get(path, params={"ids": ",".join(map(str, ids))})
    assert resp.status_code == 200, resp.text
    return resp.json()


@pytest.fixture
def pair(api):
    """One expense with a PDF artifact and one without."""
    with_file = make_expense(api, artifact=artifact(PDF, "számla 1.pdf"))["id"]
    return with_file, make_expense(api)["id"]


@pytest.fixture
def short_links(sandbox_url):
    """New links live two seconds during the test."""
    requests.put(f"{sandbox_url}/_sandbox/artifacts/url-ttl/", json={"seconds": 2}, timeout=10)
    yield
    requests.put(f"{sandbox_url}/_sandbox/artifacts/url-ttl/", json={"seconds": None},
                 timeout=10)


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_artifact_records_carry_filename_extension_and_url_only_when_present(api, pair, method):
    with_file, without = pair
    records = _records(api, [without, with_file], method=method)
    assert [r["id"] for r in records] == [without, with_file]
    assert records[0] == {"id": without, "expense_id": without, "has_artifact": False}
    assert records[1]["has_artifact"] is True
    assert records[1]["filename"] == "számla 1.pdf" and records[1]["extension"] == "pdf"
    assert records[1]["url"].startswith(api.base + "/_files/expense/")


def test_artifact_url_is_token_free_and_serves_the_bytes(api, pair):
    url = _records(api, [pair[0]])[0]["url"]
    assert "token" not in url.lower()
    resp = requests.get(url, timeout=10)
    assert resp.status_code == 200
    assert resp.content == PDF
    assert resp.headers["Content-Type"] == "application/pdf"
    assert "filename*=UTF-8''sz%C3%A1mla%201.pdf" in resp.headers["Content-Disposition"]


def test_artifact_url_is_token_free_and_expires(api, pair, short_links):
    asked = time.time()
    record = _records(api, [pair[0]])[0]
    url, expires = record["url"], datetime.fromisoformat(record["expires_at"]).timestamp()
    assert expires >= asked + 2
    assert requests.get(url, timeout=10).status_code == 200
    time.sleep(max(0.0, expires - time.time()) + 1.1)
    resp = requests.get(url, timeout=10)
    assert resp.status_code == 403
    assert "expired" in resp.json()["detail"]


def test_artifact_link_expires_after_fifteen_minutes_by_default(api, pair):
    record = _records(api, [pair[0]])[0]
    expires = int(record["url"].split("expires=")[1].split("&")[0])
    assert 890 <= expires - time.time() <= 910
    assert record["expires_at"] == datetime.fromtimestamp(expires, UTC).isoformat()


@pytest.mark.parametrize("change", ["sig", "id", "expires", "drop"])
def test_tampered_artifact_url_is_403(api, pair, change):
    url = _records(api, [pair[0]])[0]["url"]
    path, _, query = url.partition("?")
    args = dict(part.split("=") for part in query.split("&"))
    if change == "sig":
        args["sig"] = ("0" if args["sig"][0] != "0" else "1") + args["sig"][1:]
    elif change == "expires":
        args["expires"] = str(int(args["expires"]) + 3600)
    elif change == "drop":
        args.pop("sig")
    else:
        path = path.replace(f"/expense/{pair[0]}/", f"/expense/{pair[1]}/")
    query = "&".join(f"{k}={v}" for k, v in args.items())
    assert requests.get(f"{path}?{query}", timeout=10).status_code == 403


def test_download_content_type_is_sniffed_when_the_name_does_not_tell(api):
    expense = make_expense(api, artifact=artifact(PNG, "scan"))
    url = _records(api, [expense["id"]])[0]["url"]
    assert requests.get(url, timeout=10).headers["Content-Type"] == "image/png"


def test_download_content_type_follows_the_content_when_the_name_lies(api):
    expense = make_expense(api, artifact=artifact(XML, "invoice.pdf"))
    url = _records(api, [expense["id"]])[0]["url"]
    assert requests.get(url, timeout=10).headers["Content-Type"] == "application/xml"


def test_artifacts_of_another_company_are_left_out(api, pair, other_api):
    foreign = make_expense(other_api, artifact=artifact())["id"]
    assert [r["id"] for r in _records(api, [foreign, pair[0]])] == [pair[0]]


def test_artifacts_with_non_integer_ids_is_400(api):
    assert api.get("/1/artifacts/expense/?ids=1,abc").status_code == 400
    assert api.post("/1/artifacts/expense/", json={"ids": "1,2"}).status_code == 400


def test_artifacts_without_ids_list_every_record_by_page(api, pair):
    body = api.get("/1/artifacts/expense/?page_size=1").json()
    assert body["count"] == 2 and len(body["results"]) == 1 and body["next"]


def test_artifacts_accept_ids_repeated_in_the_query(api, pair):
    resp = api.get(f"/1/artifacts/expense/?ids={pair[0]}&ids={pair[1]}")
    assert [r["id"] for r in resp.json()] == list(pair)


def test_unknown_artifact_kind_is_404(api):
    assert api.get("/1/artifacts/salary/?ids=1").status_code == 404


def test_artifacts_need_a_token_but_viewers_may_post(api, pair):
    assert api.post("/1/artifacts/expense/", json={"ids": [pair[0]]},
                    token=None).status_code == 401
    assert api.post("/1/artifacts/expense/", json={"ids": [pair[0]]},
                    token="viewer").status_code == 200


def _income_with_image(api, ecat, image: bytes | None) -> int:
    body = {"invoice_number": f"BIZ-{time.time_ns()}", "issued_at": "2025-03-05",
            "fulfilled_at": "2025-03-05", "due_at": "2025-03-20", "net_amount": "1000.00",
            "vat_amount": "270.00", "gross_amount": "1270.00", "partner_name": "Alfa Kft.",
            "assignments": [{"revenue_type": ecat.revenue_types[0], "net_amount": "1000.00",
                             "gross_amount": "1270.00", "vat": ecat.revenue_vats[0]}]}
    if image is not None:
        body["invoice_image"] = {"filename": "bevetel.pdf",
                                 "content": base64.b64encode(image).decode()}
    resp = api.post("/2/incomes/create/", json=body)
    assert resp.status_code == 201, resp.text
    return resp.json()["id"]


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_income_artifacts_are_served_the_same_way(api, ecat, method):
    with_image = _income_with_image(api, ecat, PDF)
    without = _income_with_image(api, ecat, None)
    records = _records(api, [with_image, without], kind="income", method=method)
    assert records[1] == {"id": without, "income_id": without, "has_artifact": False}
    assert records[0]["filename"] == "bevetel.pdf" and records[0]["extension"] == "pdf"
    download = requests.get(records[0]["url"], timeout=10)
    assert download.status_code == 200 and download.content == PDF
