"""Spec 4.6, 4.7: catalogue records in use by incomes, expenses or policies are not deleted."""
import requests


def _ids(api, path, **match):
    return sorted(r["id"] for r in api.get(path).json()
                  if all(r.get(k) == v for k, v in match.items()))


def _income(api, number="REF-1", revenue_type=None, tags=(), ledger_number_id=None):
    """An accounting document through the public API with one assignment."""
    vat = _ids(api, "/2/accounting/vat-categories/", type="revenue", percent=27.0)[0]
    part = {"revenue_type": revenue_type or _ids(api, "/2/revenue-types/")[0], "vat": vat,
            "net_amount": "1000.00", "gross_amount": "1270.00", "tags": list(tags)}
    if ledger_number_id:
        part["ledger_number_id"] = ledger_number_id
    resp = api.post("/2/incomes/create/", json={
        "invoice_number": number, "issued_at": "2025-03-05", "fulfilled_at": "2025-03-05",
        "due_at": "2025-03-20", "net_amount": "1000.00", "vat_amount": "270.00",
        "gross_amount": "1270.00", "partner_name": "Alfa Kft.", "assignments": [part]})
    assert resp.status_code == 201, resp.text


def _expense(api, expense_type=None, tags=()):
    """An expense through the sandbox control, with one assignment."""
    vat = _ids(api, "/2/accounting/vat-categories/", type="cost", percent=27.0)[0]
    part = {"expense_type": expense_type or _ids(api, "/2/expense-types/")[0], "vat": vat,
            "net_amount": "1000.00", "vat_amount": "270.00", "gross_amount": "1270.00"}
    resp = requests.post(f"{api.base}/_sandbox/expenses/", timeout=10, json={
        "company_id": api.company.id, "tags": list(tags), "assignments": [part]})
    assert resp.status_code == 201, resp.text


def test_tag_delete_keeps_tags_referenced_by_incomes_and_expenses(api):
    income_tag, expense_tag, free = (api.post("/2/tags/create/", json={"name": n}).json()["id"]
                                     for n in ("Bevételi", "Költségi", "Szabad"))
    _income(api, tags=[income_tag])
    _expense(api, tags=[expense_tag])
    body = api.post("/2/tags/delete/", json={"ids": [income_tag, expense_tag, free]}).json()
    assert body["deleted"] == [free]
    assert body["not_deleted"] == [income_tag, expense_tag]
    assert body["references"][str(income_tag)] == ["income_assignment_tag"]
    assert body["references"][str(expense_tag)] == ["expense_tag"]


def test_revenue_type_delete_refuses_types_in_use_and_reports_them_in_failed_ids(api):
    used = _ids(api, "/2/revenue-types/")[0]
    spare = api.post("/2/revenue-types/create/", json={"name": "Nem használt"}).json()["id"]
    _income(api, revenue_type=used)
    body = api.post("/2/revenue-types/delete/", json={"ids": [used, spare]}).json()
    assert body["deleted"] == [spare] and body["failed_ids"] == [used]
    assert body["reasons"] == {str(used): "in_use"}
    assert used in [t["id"] for t in api.get("/2/revenue-types/").json()]


def test_expense_type_delete_refuses_types_in_use(api):
    used = _ids(api, "/2/expense-types/")[0]
    _expense(api, expense_type=used)
    body = api.post("/2/expense-types/delete/", json={"ids": [used]}).json()
    assert body["deleted"] == [] and body["failed_ids"] == [used]
    assert body["reasons"] == {str(used): "in_use"}


def test_revenue_type_named_by_income_policies_is_not_deleted(api):
    type_id = api.post("/2/revenue-types/create/", json={"name": "Szabályé"}).json()["id"]
    policies = {"v": 2, "skip_for_multiple_match": False, "ignore_policies": [], "policies": [
        {"name": "Típus", "enabled": True, "match": "all", "set": {"revenue_type": type_id},
         "conditions": [{"field": "partner_name", "op": "contains", "value": "Bt"}]}]}
    resp = api.patch(f"/2/company-info/update/{api.company.id}/",
                     json={"income_policies": policies})
    assert resp.status_code == 200, resp.text
    body = api.post("/2/revenue-types/delete/", json={"ids": [type_id]}).json()
    assert body["failed_ids"] == [type_id]
    assert body["references"] == {str(type_id): ["income_policies"]}


def test_ledger_number_in_use_is_not_deleted(api):
    ledger = _ids(api, "/2/accounting/ledger-numbers/")[0]
    _income(api, ledger_number_id=ledger)
    resp = api.post("/2/accounting/ledger-numbers/delete/", json={"ids": [ledger]})
    assert resp.status_code == 400
    assert resp.json()["failed_ids"] == [ledger] and resp.json()["reasons"] == {
        str(ledger): "in_use"}
