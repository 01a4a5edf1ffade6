"""upstream-notes: ledger numbers {id, name, code}."""
from conftest import Api

PATH = "/2/accounting/ledger-numbers/"


def test_ledger_list_is_plain_list_of_id_name_code(api):
    body = api.get(PATH).json()
    assert body and all(set(r) == {"id", "name", "code"} for r in body)
    codes = [r["code"] for r in body]
    assert codes == sorted(codes)


def test_ledger_create_single_and_list_answer_the_live_lists(api):
    one = api.post(f"{PATH}create/", json={"name": "Bankköltség", "code": "539"})
    assert one.status_code == 200
    created = one.json()["created_ledger_numbers"][0]
    assert created["code"] == "539" and one.json()["not_created_ledger_numbers"] == []
    many = api.post(f"{PATH}create/", json={"ledger_numbers": [{"name": "Kód nélkül"},
                                                                {"name": "Bankköltség"}]})
    assert [(r["name"], r["code"]) for r in many.json()["created_ledger_numbers"]] == \
        [("Kód nélkül", None), ("Bankköltség", None)]
    assert created in api.get(PATH).json()


def test_ledger_create_reports_blank_and_duplicate_items_and_creates_the_rest(api):
    taken = api.get(PATH).json()[0]["code"]
    body = api.post(f"{PATH}create/", json={"ledger_numbers": [
        {"name": "", "code": ""}, {"name": "Másik", "code": taken}, {"name": "Jó", "code": "X1"},
        {"name": "Ismét", "code": "X1"}]}).json()
    assert [r["code"] for r in body["created_ledger_numbers"]] == ["X1"]
    refused = body["not_created_ledger_numbers"]
    assert [r["code"] for r in refused] == ["", taken, "X1"]
    assert "name" in refused[0]["reason"] and "code" in refused[0]["reason"]
    assert "already exists" in refused[1]["reason"]


def test_ledger_update_changes_name_and_code(api):
    row = api.get(PATH).json()[0]
    resp = api.patch(f"{PATH}update/{row['id']}/", json={"code": "9111", "name": "Új név"})
    assert resp.status_code == 200 and resp.json() == {"id": row["id"], "name": "Új név",
                                                       "code": "9111"}


def test_ledger_update_can_clear_code(api):
    row = api.get(PATH).json()[0]
    assert api.post(f"{PATH}update/{row['id']}/", json={"code": None}).json()["code"] is None


def test_ledger_update_of_foreign_number_is_404(api, make_company, sandbox_url):
    foreign = Api(sandbox_url, make_company()).get(PATH).json()[0]
    assert api.patch(f"{PATH}update/{foreign['id']}/", json={"name": "X"}).status_code == 404


def test_ledger_delete_answers_204(api):
    own = api.post(f"{PATH}create/", json={"name": "Ideiglenes"}).json()
    own = own["created_ledger_numbers"][0]["id"]
    assert api.post(f"{PATH}delete/", json={"ids": [own]}).status_code == 204
    assert own not in [r["id"] for r in api.get(PATH).json()]


def test_ledger_delete_with_unknown_or_foreign_ids_deletes_nothing(api, make_company,
                                                                    sandbox_url):
    foreign = Api(sandbox_url, make_company()).get(PATH).json()[0]["id"]
    own = api.post(f"{PATH}create/", json={"name": "Ideiglenes"}).json()
    own = own["created_ledger_numbers"][0]["id"]
    resp = api.post(f"{PATH}delete/", json={"ids": [own, foreign, 31337]})
    assert resp.status_code == 400 and resp.json()["failed_ids"] == [foreign, 31337]
    assert own in [r["id"] for r in api.get(PATH).json()]
