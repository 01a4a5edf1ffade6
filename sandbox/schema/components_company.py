"""Component schemas of the company and its income policies (spec 2.1, DESIGN "policy editor")."""
from __future__ import annotations

from app.policies.labels import FIELDS, MATCH_MODES, OPS

from .model import T, array, nullable, obj, prop, ref

TEXT_OR_ID = {"type": ["integer", "string"]}
TARGETS = {
    "revenue_type": prop(nullable(TEXT_OR_ID), T("Bevételtípus: azonosító vagy új név.",
                                                 "Revenue type: id, or a name to create.")),
    "job_number": prop(nullable({"type": "string"}), T("Munkaszám.", "Job number.")),
    "ledger_number": prop(nullable(TEXT_OR_ID), T("Főkönyvi szám: azonosító vagy új név.",
                                                  "Ledger number: id, or a name to create.")),
    "tags": prop(nullable({"type": "array", "items": TEXT_OR_ID}),
                 T("Címkék: azonosítók vagy új nevek.", "Tags: ids, or names to create.")),
}
RULE = {
    "name": prop("string", T("A szabály neve.", "Name of the rule.")),
    "enabled": prop("boolean", T("Részt vesz-e (alapértelmezés: igen).",
                                 "Whether it takes part (default: yes).")),
    "match": prop({"type": "string", "enum": list(MATCH_MODES)},
                  T("all: minden feltétel, any: bármelyik.", "all: every condition, any: one.")),
    "conditions": array(ref("PolicyCondition"), T("Feltételek.", "Conditions.")),
}

SCHEMAS = {
    "Company": obj({
        "id": prop("integer", T("Cégazonosító; a Service-Company-Id fejléc értéke.",
                                "Company id; the value of the Service-Company-Id header.")),
        "name": prop("string", T("Cégnév.", "Company name.")),
        "tax_account_number": prop("string", T("Adószám.", "Tax number.")),
        "default_currency_name": prop("string", T("Alapértelmezett pénznem kódja.",
                                                  "Code of the default currency.")),
        "expense_email": prop("string", T("Költségszámla e-mail cím.", "Expense e-mail.")),
        "document_email": prop("string", T("Dokumentum e-mail cím.", "Document e-mail.")),
        "advanced_accounting": prop("boolean", T(
            "Főkönyvi számok és cég-ÁFA-kategóriák a bontásokon.",
            "Ledger numbers and company VAT categories apply to assignments.")),
        "enable_accounting_id": prop("boolean", T("accounting_id mező a bevételeken.",
                                                  "The income field accounting_id is on.")),
        "enable_vat_period": prop("boolean", T("ÁFA-időszak mezők a bevételeken.",
                                               "The income VAT period fields are on.")),
        "income_policies": prop(nullable(ref("IncomePolicies")),
                                T("Bevételi szabályok vagy null.", "Income policies or null.")),
    }, required=("id", "name", "default_currency_name", "income_policies")),
    "CompanyUpdate": obj({
        "income_policies": prop(nullable(ref("IncomePolicies")),
                                T("Új szabályok; null törli őket.", "New policies; null deletes.")),
        "enable_vat_period": prop("boolean", T("ÁFA-időszak be/ki.", "VAT period on/off.")),
        "enable_accounting_id": prop("boolean", T("accounting_id be/ki.",
                                                  "accounting_id on/off.")),
    }),
    "IncomePolicies": obj({
        "v": prop({"type": "integer", "enum": [2]}, T("Formátumverzió.", "Format version.")),
        "skip_for_multiple_match": prop("boolean", T(
            "Több egyező szabálynál egyik sem fut, a bevétel ellenőrzésre vár.",
            "When several policies match none applies; the income needs review.")),
        "policies": array(ref("IncomePolicy"), T("Szabályok, sorrendben.", "Policies, in order.")),
        "ignore_policies": array(ref("IgnorePolicy"), T("Kihagyó szabályok: az egyező bevétel "
                                                        "nem kerül be.", "Skip rules: a matching "
                                                        "income is not imported.")),
    }, required=("v",), text=T("Ismeretlen kulcsokat is megőriz.", "Unknown keys are kept.")),
    "PolicyCondition": obj({
        "field": prop({"type": "string", "enum": list(FIELDS)}, T("Mező.", "Field.")),
        "op": prop({"type": "string", "enum": list(OPS)}, T("Művelet.", "Operator.")),
        "value": prop({}, T("Érték (between: [tól, ig], in: lista).",
                            "Value (between: [from, to], in: a list).")),
    }, required=("field", "op")),
    "IgnorePolicy": obj(RULE, required=("name",)),
    "IncomePolicy": obj({**RULE, "set": ref("PolicyActions")}, required=("name",)),
    "PolicyActions": obj({**TARGETS, "split": prop(nullable(array(ref("PolicySplitPart"))), T(
        "Felosztás részekre; együtt a teljes összeget fedik.",
        "Split into parts that together cover the whole income."))}),
    "PolicySplitPart": obj({
        **TARGETS,
        "percent": prop(nullable({"type": "number"}), T("Százalék.", "Percent.")),
        "amount": prop(nullable({"type": ["number", "string"]}), T("Bruttó összeg.",
                                                                   "Gross amount.")),
    }),
}
