"""POST /2/audit-xml/: an invoicing program's audit export becomes incomes, once."""
from __future__ import annotations

import base64

import pytest
import requests

from sandbox.core.server import start
from tests.sandbox.live_shapes import live_operation


def export(*invoices: str, root: str = "szamlak") -> str:
    """An audit export holding the given <szamla> elements, base64-encoded."""
    xml = (f'<?xml version="1.0" encoding="UTF-8"?>\n<{root} xmlns="http://schemas.nav.gov.hu/'
           f'2013/szamla"><export_datuma>2026-11-01</export_datuma>{"".join(invoices)}</{root}>')
    return base64.b64encode(xml.encode()).decode()


def invoice(number: str, net: str = "10000", vat: str = "2700", gross: str = "12700",
            customer: str = "Vevő Kft.", extra: str = "") -> str:
    """One <szamla> of an export."""
    return (f"<szamla><fejlec><szlasz>{number}</szlasz><szladatum>2026-10-05</szladatum>"
            f"<teljdatum>2026-10-04</teljdatum></fejlec><vevo><nev>{customer}</nev>"
            f"<adoszam>12345676-2-42</adoszam><cim><iranyitoszam>1111</iranyitoszam>"
            f"<telepules>Budapest</telepules></cim></vevo>{extra}<osszesites><vegosszeg>"
            f"<nettoarossz>{net}</nettoarossz><afaertekossz>{vat}</afaertekossz>"
            f"<bruttoarossz>{gross}</bruttoarossz></vegosszeg></osszesites></szamla>")


def upload(api, *contents: str, token: str = "admin"):
    """POST the files to /2/audit-xml/."""
    files = [{"content": c, "filename": f"export-{n}.xml"} for n, c in enumerate(contents)]
    return api.post("/2/audit-xml/", json={"audit_xmls": files}, token=token)


def incomes(api) -> list[dict]:
    """The company's incomes (flat, whatever the envelope)."""
    results = api.get("/1/incomes/", params={"page_size": 100}).json()["results"]
    return results["incomes"] if isinstance(results, dict) else results


def test_upload_answers_the_live_201_with_no_body(api):
    resp = upload(api, export(invoice("A-1")))
    assert resp.status_code == live_operation("POST", "/2/audit-xml")["response_status"]
    assert resp.content == b""


def test_each_invoice_becomes_an_income_with_its_amounts_and_customer(api):
    upload(api, export(invoice("A-1"), invoice("A-2", "100", "27", "127", "Másik Bt.")))
    rows = {i["invoice_number"]: i for i in incomes(api)}
    assert set(rows) == {"A-1", "A-2"}
    assert rows["A-2"]["gross_amount"] == "127.00" and rows["A-2"]["partner_name"] == "Másik Bt."
    assert rows["A-1"]["issued_at"] == "2026-10-05" and rows["A-1"]["fulfilled_at"] == "2026-10-04"


def test_invoice_lines_become_income_items(api):
    lines = ("<termek_szolgaltatas_tetelek><termek_szolgaltatas_tetel><termeknev>Munkadíj"
             "</termeknev><menny>2</menny><nettoegysar>5000</nettoegysar><nettoar>10000</nettoar>"
             "<adokulcs>27</adokulcs><adoertek>2700</adoertek><bruttoar>12700</bruttoar>"
             "</termek_szolgaltatas_tetel></termek_szolgaltatas_tetelek>")
    upload(api, export(invoice("L-1", extra=lines)))
    item = incomes(api)[0]["items"][0]
    assert item["name"] == "Munkadíj" and item["gross_amount"] == "12700.00"


def test_foreign_currency_invoice_keeps_currency_and_rate(api):
    extra = "<nem_kotelezo><penznem>EUR</penznem><arfolyam>395.5</arfolyam></nem_kotelezo>"
    upload(api, export(invoice("E-1", extra=extra)))
    row = incomes(api)[0]
    assert row["currency"] == 2 and row["exchange_rate"].startswith("395.5")


def test_uploading_the_same_export_again_creates_nothing_new(api):
    content = export(invoice("A-1"), invoice("A-2"))
    upload(api, content)
    assert upload(api, content, export(invoice("A-2"), invoice("A-3"))).status_code == 201
    assert sorted(i["invoice_number"] for i in incomes(api)) == ["A-1", "A-2", "A-3"]


@pytest.mark.parametrize(("content", "message"), [
    ("not base64!", "base64"),
    (base64.b64encode(b"%PDF-1.4 no xml").decode(), "not XML"),
    (base64.b64encode(b"<?xml version='1.0'?><szamlak><szamla>").decode(), "cannot be read"),
    (export(invoice("A-1"), root="Invoices"), "root element"),
])
def test_unreadable_file_is_refused_naming_the_file(api, content, message):
    resp = upload(api, export(invoice("OK-1")), content)
    assert resp.status_code == 400
    errors = resp.json()["audit_xmls"]
    assert errors[0] == {} and message in errors[1]["content"][0]
    assert incomes(api) == []  # the good file was not imported either: one transaction


def test_invalid_invoice_refuses_the_upload_and_names_the_invoice(api):
    resp = upload(api, export(invoice("A-1"), invoice("BAD-1", net="tíz")))
    assert resp.status_code == 400
    problem = resp.json()["audit_xmls"][0]["invoices"][0]
    assert problem["invoice_number"] == "BAD-1" and "net_amount" in problem
    assert incomes(api) == []


@pytest.mark.parametrize("body", [{}, {"audit_xmls": []}, {"audit_xmls": ["x"]}, []])
def test_malformed_body_is_a_400(api, body):
    assert api.post("/2/audit-xml/", json=body).status_code == 400


def test_viewer_may_not_upload(api):
    assert upload(api, export(invoice("A-1")), token="viewer").status_code == 403


@pytest.fixture(scope="module")
def demo_incomes(tmp_path_factory) -> list[dict]:
    """Company 1's incomes in a demo sandbox, over HTTP."""
    server, url = start(port=0, db_path=str(tmp_path_factory.mktemp("audit") / "demo.db"),
                        seed="demo")
    resp = requests.get(f"{url}/1/incomes/", params={"page_size": 500}, timeout=30,
                        headers={"Authorization": "Token demo-admin"})
    server.shutdown()
    results = resp.json()["results"]
    return results["incomes"] if isinstance(results, dict) else results


def test_demo_export_was_imported_as_incomes_with_their_customers(demo_incomes):
    audit = [i for i in demo_incomes if i["invoice_number"].startswith("SZLA-")
             and i["invoice_number"].count("-") == 2 and i["invoice_number"][5:11].isdigit()]
    assert len(audit) == 4
    assert all(i["partner_name"] and float(i["gross_amount"]) > 0 for i in audit)
    assert all(i["items"] and i["items"][0]["vat_percent"] == 27 for i in audit)
