"""List envelopes shared by every list endpoint (upstream-notes, "Envelopes and pagination")."""


def test_page_beyond_the_last_is_404_invalid_page(api):
    resp = api.get("/1/incomes?page=999")
    assert resp.status_code == 404
    assert resp.json() == {"detail": "Invalid page."}


def test_page_size_must_be_a_positive_integer(api):
    assert api.get("/1/incomes?page_size=0").status_code == 400
    assert api.get("/1/incomes?page_size=abc").status_code == 400


def test_next_and_previous_are_absolute_urls(api, sandbox_url):
    for number in range(3):
        api.post("/2/partners/create/", json={"name": f"Lapozó {number} Kft.", "is_customer": True})
    first = api.get("/1/partners/?page_size=2").json()
    assert first["next"].startswith(sandbox_url) and first["previous"] is None
    second = api.get(first["next"].removeprefix(sandbox_url)).json()
    assert second["previous"].startswith(sandbox_url)
