"""List envelopes shared by every list endpoint (upstream-notes, "Envelopes and pagination")."""


def test_page_beyond_the_last_is_404_invalid_page(api):
    resp = api.get("/1/incomes?page=999")
    assert resp.status_code == 404
    assert resp.json() == {"detail": "Invalid page."}


def test_a_page_that_is_not_a_positive_whole_number_is_404_invalid_page_as_drf_answers(api):
    for page in ("0", "-1", "abc", "1.5", "\u0663"):
        resp = api.get("/1/incomes", params={"page": page})
        assert (resp.status_code, resp.json()) == (404, {"detail": "Invalid page."}), page
    assert api.get("/1/incomes", params={"page": ""}).status_code == 200  # blank: page 1


def test_a_page_size_that_is_not_a_size_gives_the_default_as_drf_does(api):
    for number in range(25):
        api.post("/2/partners/create/", json={"name": f"Méret {number} Kft.", "is_customer": True})
    for size in ("0", "abc", "-5"):
        body = api.get("/1/partners/", params={"page_size": size}).json()
        assert len(body["results"]) == 20 and body["count"] >= 25, size
    assert len(api.get("/1/partners/", params={"page_size": "5"}).json()["results"]) == 5


def test_an_unreadable_cursor_is_404_invalid_cursor(api):
    for cursor in ("garbage", "eDox", "bjp4"):  # not base64; x:1; n:x
        resp = api.get("/2/expenses/", params={"cursor": cursor})
        assert (resp.status_code, resp.json()) == (404, {"detail": "Invalid cursor"}), cursor


def test_next_and_previous_are_absolute_urls(api, sandbox_url):
    for number in range(3):
        api.post("/2/partners/create/", json={"name": f"Lapozó {number} Kft.", "is_customer": True})
    first = api.get("/1/partners/?page_size=2").json()
    assert first["next"].startswith(sandbox_url) and first["previous"] is None
    second = api.get(first["next"].removeprefix(sandbox_url)).json()
    assert second["previous"].startswith(sandbox_url)
