"""upstream-notes: ledger numbers {id, name, code}."""
from conftest import Api

PATH = "/2/accounting/ledger-numbers/"


def test_ledger_list_is_plain_list_of_id_name_code(api):
    body = api.get(PATH).json()
    assert body and all(set(r) == {"id", "name", "code"} for r in body)
    codes = [r["code"] for r in body]
    assert codes == sorted(codes)


def test_ledger_create_single_and_list(api):
    one = api.post(f"{PATH}create/", json={"name": "Bankköltség", "code": "539"})
    assert one.status_code == 201 and one.json()["code"] == "539"
    many = api.post(f"{PATH}create/", json=[{"name": "Kód nélkül"}, {"name": "Bankköltség"}])
    assert many.status_code == 201
    assert [(r["name"], r["code"]) for r in many.json()] == [("Kód nélkül", None),
                                                             ("Bankköltség", None)]
    assert one.json() in api.get(PATH).json()


def test_ledger_create_rejects_blank_name_and_code(api):
    resp = api.post(f"{PATH}create/", json={"name": "", "code": ""})
    assert resp.status_code == 400 and {"name", "code"} <= set(resp.json())


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


def test_ledger_delete_reports_unknown_and_foreign_ids_in_failed_ids(api, make_company,
                                                                     sandbox_url):
    foreign = Api(sandbox_url, make_company()).get(PATH).json()[0]["id"]
    own = api.post(f"{PATH}create/", json={"name": "Ideiglenes"}).json()["id"]
    body = api.post(f"{PATH}delete/", json={"ids": [own, foreign, 31337]}).json()
    assert body["deleted"] == [own] and body["failed_ids"] == [foreign, 31337]
    assert own not in [r["id"] for r in api.get(PATH).json()]
