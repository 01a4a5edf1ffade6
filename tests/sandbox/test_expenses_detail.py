"""GET /2/expenses/{id}/ (spec 2.3) and the deprecated /1/ list and detail (4.3, 9.2)."""
import expense_support
from expense_support import PNG, artifact, detail, make_expense, set_state

advanced_api = expense_support.advanced_api  # a fixture, found by name
ecat = expense_support.ecat  # a fixture, found by name
other_api = expense_support.other_api  # a fixture, found by name


def test_detail_carries_editable_fields(api, ecat):
    expense = make_expense(api, ecat)
    body = detail(api, expense["id"])
    assert "note" in body["editable_fields"]
    assert "assignments.expense_type" in body["editable_fields"]


def test_detail_references_are_objects_with_id_name_and_code(advanced_api):
    advanced = advanced_api
    ledger = advanced.get("/2/accounting/ledger-numbers/").json()[0]
    cost_vats = [v for v in advanced.get("/2/accounting/vat-categories/").json()
                 if v["type"] == "cost"]
    types = advanced.get("/2/expense-types/").json()
    item = {"expense_type": types[0]["id"], "net_amount": "10", "vat_amount": "0",
            "gross_amount": "10", "vat": cost_vats[0]["id"], "ledger_number": ledger["id"],
            "vat_ledger_number": ledger["id"], "company_vat_category": cost_vats[1]["id"]}
    expense = make_expense(advanced, assignments=[item])
    got = detail(advanced, expense["id"])["assignments"][0]
    assert got["ledger_number"] == {"id": ledger["id"], "name": ledger["name"],
                                    "code": ledger["code"]}
    assert got["vat_ledger_number"]["id"] == ledger["id"]
    assert set(got["company_vat_category"]) == {"id", "name", "code"}
    assert got["expense_type"] == {"id": types[0]["id"], "name": types[0]["name"]}
    assert isinstance(got["vat"]["percent"], float)


def test_detail_secondary_id_tags_and_simple_tags_are_ids(api, ecat):
    expense = make_expense(api, ecat, secondary_id="S-1", tags=[ecat.tags[0]],
                           simple_tags=[ecat.tags[1], ecat.tags[2]])
    body = detail(api, expense["id"])
    assert body["secondary_id"] == "S-1"
    assert body["tags"] == [ecat.tags[0]]
    assert body["simple_tags"] == [ecat.tags[1], ecat.tags[2]]


def test_detail_items_carry_float_vat_percent(api, ecat):
    expense = make_expense(api, ecat, items=[{"name": "Papír", "vat_percent": 5}])
    assert detail(api, expense["id"])["items"][0]["vat_percent"] == 5.0


def test_detail_artifact_fields_present_only_when_has_artifact(api, ecat):
    with_file = detail(api, make_expense(api, ecat, artifact=artifact(PNG, "kep.png"))["id"])
    assert with_file["has_artifact"] is True
    assert with_file["artifact_filename"] == "kep.png"
    assert with_file["artifact_extension"] == "png"
    assert with_file["artifact_created_at"].endswith("+00:00")
    without = detail(api, make_expense(api, ecat)["id"])
    assert without["has_artifact"] is False
    assert not {"artifact_filename", "artifact_extension", "artifact_created_at"} & set(without)


def test_detail_of_another_companys_expense_is_404(api, other_api):
    foreign = make_expense(other_api)
    assert api.get(f"/2/expenses/{foreign['id']}/").status_code == 404


def test_detail_shows_processing_flags_and_accounting_status(api, ecat):
    expense = make_expense(api, ecat)
    body = set_state(api, expense["id"], processed=True, checked=True)
    assert body["processed"] is True and body["checked"] is True
    assert detail(api, expense["id"])["accounting_status"] == "checked"


def test_v1_expense_list_is_deprecated_and_points_to_v2(api, ecat):
    make_expense(api, ecat)
    resp = api.get("/1/expenses")
    assert resp.status_code == 200
    assert resp.headers["Deprecation"] == "true"
    assert resp.headers["Link"] == '</2/expenses>; rel="successor-version"'


def test_v1_expense_list_uses_page_numbers(api, ecat):
    for _ in range(3):
        make_expense(api, ecat)
    body = api.get("/1/expenses?page_size=2").json()
    assert body["count"] == 3 and len(body["results"]) == 2
    assert "page=2" in body["next"] and body["previous"] is None


def test_v1_expense_detail_is_deprecated_and_points_to_v2(api, ecat):
    expense = make_expense(api, ecat)
    resp = api.get(f"/1/expenses/{expense['id']}/")
    assert resp.status_code == 200
    assert resp.json()["id"] == expense["id"]
    assert resp.headers["Deprecation"] == "true"
    assert resp.headers["Link"] == f'</2/expenses/{expense["id"]}/>; rel="successor-version"'


def test_v2_endpoints_are_not_marked_deprecated(api, ecat):
    expense = make_expense(api, ecat)
    assert "Deprecation" not in api.get("/2/expenses").headers
    assert "Deprecation" not in api.get(f"/2/expenses/{expense['id']}/").headers
