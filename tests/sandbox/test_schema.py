"""Spec part 9: the machine-readable schema, its languages, deprecations and tag groups."""
from __future__ import annotations

import pytest
from openapi_spec_validator import validate
from openapi_spec_validator.validation import OpenAPIV31SpecValidator

DEPRECATED = {  # spec 9.2: /1/ operation -> its /2/ replacement
    ("get", "/1/expenses/"): "/2/expenses/",
    ("get", "/1/expenses/{expense_id}/"): "/2/expenses/{expense_id}/",
    ("get", "/1/taxes/"): "/2/monthly-taxes/",
    ("post", "/1/taxes/create/"): "/2/taxes/create/",
    ("post", "/1/taxes/update/"): "/2/taxes/update/",
    ("post", "/1/taxes/delete/"): "/2/taxes/delete/",
    ("get", "/1/salaries/"): "/2/monthly-salaries/",
    ("post", "/1/salaries/create/"): "/2/salaries/create/",
    ("post", "/1/salaries/update/"): "/2/salaries/update/",
    ("post", "/1/salaries/delete/"): "/2/salaries/delete/",
}


@pytest.fixture(scope="module")
def schemas(sandbox_url):
    """The schema in both languages, fetched once with an admin token."""
    import requests

    from tests.conftest import create_company

    company = create_company(sandbox_url)
    headers = {"Authorization": f"Token {company.tokens['admin']}"}
    return {lang: requests.get(f"{sandbox_url}/2/schema/", params=params, headers=headers,
                               timeout=10).json()
            for lang, params in (("hu", {}), ("en", {"lang": "en"}))}


def _operations(doc: dict) -> dict:
    return {(method, path): op for path, ops in doc["paths"].items()
            for method, op in ops.items()}


def test_schema_is_openapi_3_1_with_token_security(schemas):
    doc = schemas["hu"]
    assert doc["openapi"].startswith("3.1")
    scheme = doc["components"]["securitySchemes"]["TokenAuth"]
    assert (scheme["type"], scheme["in"], scheme["name"]) == ("apiKey", "header", "Authorization")
    assert doc["security"] == [{"TokenAuth": []}]


def test_every_operation_takes_the_optional_company_header(schemas):
    doc = schemas["en"]
    header = doc["components"]["parameters"]["ServiceCompanyId"]
    assert (header["name"], header["in"], header["required"]) == ("Service-Company-Id",
                                                                  "header", False)
    ref = {"$ref": "#/components/parameters/ServiceCompanyId"}
    assert all(ref in op["parameters"] for op in _operations(doc).values())


def test_schema_requires_a_token_like_every_v2_path(api):
    assert api.get("/2/schema/", token=None).status_code == 401


def test_hungarian_is_the_default_and_english_differs_in_texts_only(schemas):
    hu, en = _operations(schemas["hu"]), _operations(schemas["en"])
    assert hu.keys() == en.keys()
    assert {k: op["operationId"] for k, op in hu.items()} == \
        {k: op["operationId"] for k, op in en.items()}
    assert hu[("get", "/2/company-info/")]["summary"] == "A cég adatai és beállításai"
    assert en[("get", "/2/company-info/")]["summary"] == "The company's details and settings"
    differing = [k for k in hu if hu[k]["summary"] != en[k]["summary"]]
    assert len(differing) == len(hu)


def test_property_names_stay_english_in_hungarian(schemas):
    hu, en = schemas["hu"]["components"]["schemas"], schemas["en"]["components"]["schemas"]
    assert hu.keys() == en.keys()
    assert hu["Company"]["properties"].keys() == en["Company"]["properties"].keys()
    assert "income_policies" in hu["Company"]["properties"]
    assert hu["Company"]["properties"]["name"]["description"] == "Cégnév."
    assert en["Company"]["properties"]["name"]["description"] == "Company name."


def test_tag_names_are_english_with_localised_descriptions(schemas):
    hu_tags = {t["name"]: t["description"] for t in schemas["hu"]["tags"]}
    en_tags = {t["name"]: t["description"] for t in schemas["en"]["tags"]}
    assert hu_tags.keys() == en_tags.keys()
    assert hu_tags["Accounting"] != en_tags["Accounting"]


def test_lang_en_is_announced_in_content_language(api):
    assert api.get("/2/schema/?lang=en").headers["Content-Language"] == "en"
    assert api.get("/2/schema/").headers["Content-Language"] == "hu"


@pytest.mark.parametrize(("key", "successor"), sorted(DEPRECATED.items()))
def test_v1_operations_with_a_v2_replacement_are_deprecated_and_point_to_it(schemas, key,
                                                                            successor):
    for lang in ("hu", "en"):
        op = _operations(schemas[lang])[key]
        assert op["deprecated"] is True
        assert op["x-successor"]["path"] == successor
        assert successor in op["description"]


def test_only_the_replaced_operations_are_deprecated(schemas):
    flagged = {k for k, op in _operations(schemas["en"]).items() if op.get("deprecated")}
    assert flagged == set(DEPRECATED)


def test_successor_operation_ids_exist(schemas):
    ops = _operations(schemas["en"])
    ids = {op["operationId"] for op in ops.values()}
    assert all(ops[k]["x-successor"]["operationId"] in ids for k in DEPRECATED)


@pytest.mark.parametrize(("path", "tag"), [
    ("/2/expense-types/", "Expenses"),
    ("/2/expense-types/create/", "Expenses"),
    ("/2/revenue-types/", "Incomes"),
    ("/2/revenue-types/delete/", "Incomes"),
    ("/2/accounting/ledger-numbers/", "Accounting"),
    ("/2/accounting/vat-categories/", "Accounting"),
    ("/2/accounting/vat-categories/create/", "Accounting"),
])
def test_tags_are_grouped_as_spec_9_4_says(schemas, path, tag):
    for op in schemas["en"]["paths"][path].values():
        assert op["tags"] == [tag]


def test_every_operation_has_one_known_tag_and_a_unique_id(schemas):
    doc = schemas["en"]
    known = {t["name"] for t in doc["tags"]}
    ops = list(_operations(doc).values())
    assert all(len(op["tags"]) == 1 and op["tags"][0] in known for op in ops)
    ids = [op["operationId"] for op in ops]
    assert len(ids) == len(set(ids))


def test_every_reference_resolves(schemas):
    doc = schemas["en"]
    refs = set()

    def walk(node):
        if isinstance(node, dict):
            if "$ref" in node:
                refs.add(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(doc)
    for ref in refs:
        _, section, kind, name = ref.split("/")
        assert name in doc[section][kind], ref


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_document_is_valid_openapi_3_1(schemas, lang):
    validate(schemas[lang], cls=OpenAPIV31SpecValidator)
