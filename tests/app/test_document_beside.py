"""The original document beside the edit forms: the income edit page renders without reading
the artifact (the panel loads in its own request), the panel shows the proxied image or PDF
with zoom tools, and the expense edit page shows its file from the record it already has."""
from __future__ import annotations

from sandbox.core.demo_files import minimal_pdf, tiny_png
from tests.app.conftest import sign_in
from tests.app.incomes_helpers import catalogue, income_with_file
from tests.sandbox.expense_support import artifact, make_expense


def test_income_edit_renders_without_reading_the_artifact(client, company, api, sandbox_log):
    created = income_with_file(api, "szamla.png", "szamla.png", tiny_png(3))
    sign_in(client, company)
    base = f"/c/{company.id}/incomes/{created['id']}"
    sandbox_log.reset()
    html = client.get(f"{base}/edit").get_data(as_text=True)
    assert f'hx-get="{base}/viewer"' in html and 'id="document-beside"' in html
    reads = [e["path"] for e in sandbox_log.entries(company_id=company.id, method="GET")]
    assert any(_is_record(path, "incomes", created["id"]) for path in reads), reads
    assert sandbox_log.entries(company_id=company.id, path="/1/artifacts/") == []


def test_the_income_viewer_shows_the_proxied_image_with_zoom(client, company, api):
    png = tiny_png(3)
    created = income_with_file(api, "szamla.png", "szamla.png", png)
    sign_in(client, company)
    html = client.get(f"/c/{company.id}/incomes/{created['id']}/viewer").get_data(as_text=True)
    src = f"/c/{company.id}/review/{created['id']}/document"
    assert f'<img class="doc-view__image" data-zoom-target src="{src}"' in html
    assert 'data-zoom="in"' in html and 'data-zoom="out"' in html
    assert client.get(src).get_data() == png


def test_the_income_viewer_frames_a_pdf_and_says_when_there_is_none(client, company, api):
    created = income_with_file(api, "szamla.pdf", "szamla.pdf", minimal_pdf("Szamla"))
    sign_in(client, company)
    html = client.get(f"/c/{company.id}/incomes/{created['id']}/viewer").get_data(as_text=True)
    src = f"/c/{company.id}/review/{created['id']}/document"
    assert f'<iframe class="doc-view__frame" data-zoom-target src="{src}"' in html
    bare = api.post("/2/incomes/create/", json={**_body_without_file(api)}).json()
    html = client.get(f"/c/{company.id}/incomes/{bare['id']}/viewer").get_data(as_text=True)
    assert "doc-view__none" in html and "data-zoom-target" not in html


def _body_without_file(api) -> dict:
    ids = catalogue(api)
    return {"invoice_number": "NOFILE-1", "issued_at": "2025-03-05",
            "fulfilled_at": "2025-03-05", "due_at": "2025-03-20", "net_amount": "100.00",
            "vat_amount": "27.00", "gross_amount": "127.00", "partner_name": "Üres Kft.",
            "assignments": [{"revenue_type": ids.revenue_types[0], "vat": ids.vats[0],
                             "net_amount": "100.00", "gross_amount": "127.00"}]}


def test_expense_edit_shows_its_pdf_beside_the_form(client, company, api, sandbox_log):
    expense = make_expense(api, artifact=artifact())
    sign_in(client, company)
    sandbox_log.reset()
    html = client.get(f"/c/{company.id}/expenses/{expense['id']}/edit").get_data(as_text=True)
    assert 'id="document-beside"' in html
    assert f'src="/c/{company.id}/expenses/{expense["id"]}/file"' in html
    reads = [e["path"] for e in sandbox_log.entries(company_id=company.id, method="GET")]
    assert any(_is_record(path, "expenses", expense["id"]) for path in reads), reads
    assert sandbox_log.entries(company_id=company.id, path="/1/artifacts/") == []


def _is_record(path: str, kind: str, record_id: int) -> bool:
    """Whether a logged path is the read of one record (the log captured the page's reads)."""
    return path.rstrip("/").endswith(f"/{kind}/{record_id}")
