"""URL parameters (app/forms/filters.py) are read as typed values, and a malformed one is a 400
that says which parameter is wrong, before anything is asked of the accounting service."""
from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from app.forms.filters import (
    MAX_ID,
    BadParameter,
    arg_choice,
    arg_id,
    arg_int,
    arg_page,
    page_number,
    page_size,
    small_int,
    whole,
)
from tests.app.conftest import sign_in


@pytest.mark.parametrize("text, expected", [("", None), (None, None), ("0", 0), (" 42 ", 42),
                                            (str(MAX_ID), MAX_ID)])
def test_whole_reads_ascii_digits_within_range(app, text, expected):
    with app.test_request_context("/"):
        assert whole(text, "partner") == expected


@pytest.mark.parametrize("text", ["abc", "-1", "1.5", "1e3", "NaN", "Infinity", "²", "١٢",
                                  "0x10", "1_000", "9" * 40, str(MAX_ID + 1)])
def test_whole_refuses_anything_else_naming_the_parameter(app, text):
    with app.test_request_context("/"), pytest.raises(BadParameter, match="partner"):
        whole(text, "partner")


@pytest.mark.parametrize("text, expected", [("7", 7), ("9" * 18, int("9" * 18)), ("", None),
                                            (None, None), ("9" * 19, None), ("9" * 20_000, None),
                                            ("²", None), ("١٢", None), ("-1", None), ("x", None)])
def test_small_int_reads_posted_ids_and_indexes_or_says_none(text, expected):
    assert small_int(text) == expected


def test_whole_refuses_20000_digits_without_reading_them(app):
    with app.test_request_context("/"), pytest.raises(BadParameter):
        whole("9" * 20_000, "ids")


def test_id_page_and_int_readers_apply_their_ranges_and_defaults(app):
    with app.test_request_context("/"):
        assert arg_id(MultiDict({"id": "7"})) == 7 and arg_id(MultiDict()) is None
        assert arg_page(MultiDict()) == 1 and arg_page(MultiDict({"page": "3"})) == 3
        assert arg_int(MultiDict({"months": ""}), "months", 6) == 6
        for args, read in (({"id": "0"}, arg_id), ({"page": "0"}, arg_page),
                           ({"page": "10000001"}, arg_page)):
            with pytest.raises(BadParameter):
                read(MultiDict(args))


def test_a_choice_outside_the_known_values_is_refused(app):
    with app.test_request_context("/"):
        assert arg_choice(MultiDict({"what": "draft"}), "what", ("stored", "draft")) == "draft"
        assert arg_choice(MultiDict(), "what", ("stored",), "stored") == "stored"
        with pytest.raises(BadParameter, match="what"):
            arg_choice(MultiDict({"what": "x"}), "what", ("stored", "draft"))


@pytest.mark.parametrize("args", [{"page": "x"}, {"page": "0"}, {"page": "9" * 40},
                                  {"page": "²"}, {"page_size": "NaN"}])
def test_list_pages_and_page_sizes_that_are_not_numbers_in_range_are_bad_parameters(app, args):
    with app.test_request_context("/"), pytest.raises(BadParameter, match="page"):
        page_number(MultiDict(args)) if "page" in args else page_size(MultiDict(args))


def test_a_malformed_partner_on_the_income_list_is_a_400_page_naming_it(client, company,
                                                                          sandbox_log):
    sign_in(client, company)
    sandbox_log.reset()
    response = client.get(f"/c/{company.id}/incomes/?partner=abc")
    assert response.status_code == 400
    assert "“partner” must be a whole number" in response.get_data(as_text=True)
    assert not sandbox_log.entries(path="/1/incomes", sent_for=company.id)


def test_an_htmx_request_gets_the_message_in_the_message_area(client, company):
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/review/?currency={'9' * 40}",
                          headers={"HX-Request": "true"})
    assert response.status_code == 400
    assert response.headers["HX-Retarget"] == "#messages"
    assert "“currency” must be between 1 and" in response.get_data(as_text=True)


def test_a_version_id_beyond_the_database_integers_is_a_400_not_a_500(client, company):
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/policies/version?id={'9' * 40}")
    assert response.status_code == 400


def test_a_query_value_longer_than_the_setting_is_refused_before_the_view(client, company,
                                                                          sandbox_log):
    sign_in(client, company)
    sandbox_log.reset()
    response = client.get(f"/c/{company.id}/incomes/?q={'x' * 1001}")
    assert response.status_code == 400
    assert "longer than 1000 characters" in response.get_data(as_text=True)
    assert not sandbox_log.entries(company_id=company.id)


def test_the_message_is_translated(app_config, company):
    from app import create_app

    client = create_app({**app_config, "DEFAULT_LOCALE": "hu"}).test_client()
    sign_in(client, company)
    response = client.get(f"/c/{company.id}/partners/?page=abc")
    assert response.status_code == 400
    assert "egész szám" in response.get_data(as_text=True)
