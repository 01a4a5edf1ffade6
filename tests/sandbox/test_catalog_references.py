"""Spec 4.6, 4.7: catalogue records in use by incomes, expenses or policies are not deleted."""
from expense_support import ecat, make_expense  # noqa: F401
from incomes_support import assignment, cat, create  # noqa: F401


def test_tag_delete_keeps_tags_referenced_by_incomes_and_expenses(api, cat, ecat):  # noqa: F811
    income_tag, expense_tag, free = (api.post("/2/tags/create/", json={"name": n}).json()["id"]
                                     for n in ("Bevételi", "Költségi", "Szabad"))
    create(api, cat, assignments=[assignment(cat, tags=[income_tag])])
    make_expense(api, ecat, tags=[expense_tag])
    body = api.post("/2/tags/delete/", json={"ids": [income_tag, expense_tag, free]}).json()
    assert body["deleted"] == [free]
    assert body["not_deleted"] == [income_tag, expense_tag]
    assert body["references"][str(income_tag)] == ["income_assignment_tag"]
    assert body["references"][str(expense_tag)] == ["expense_tag"]


def test_revenue_type_delete_refuses_types_in_use_and_reports_them_in_failed_ids(api, cat):  # noqa: F811
    used = cat.revenue_types[0]
    spare = api.post("/2/revenue-types/create/", json={"name": "Nem használt"}).json()["id"]
    create(api, cat)
    body = api.post("/2/revenue-types/delete/", json={"ids": [used, spare]}).json()
    assert body["deleted"] == [spare] and body["failed_ids"] == [used]
    assert body["reasons"] == {str(used): "in_use"}
    assert used in [t["id"] for t in api.get("/2/revenue-types/").json()]


def test_expense_type_delete_refuses_types_in_use(api, ecat):  # noqa: F811
    make_expense(api, ecat)
    body = api.post("/2/expense-types/delete/", json={"ids": [ecat.expense_types[0]]}).json()
    assert body["deleted"] == [] and body["failed_ids"] == [ecat.expense_types[0]]
    assert body["reasons"] == {str(ecat.expense_types[0]): "in_use"}


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


def test_ledger_number_in_use_is_not_deleted(api, cat):  # noqa: F811
    ledger = cat.ledger_numbers[0]
    create(api, cat, assignments=[assignment(cat, ledger_number_id=ledger)])
    body = api.post("/2/accounting/ledger-numbers/delete/", json={"ids": [ledger]}).json()
    assert body["failed_ids"] == [ledger] and body["reasons"] == {str(ledger): "in_use"}
