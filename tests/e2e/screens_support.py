"""Support for the screen-size and accessibility browser tests: one company with something on
every page, the list of page types, and the in-browser measurements (page width, overlaps,
focus ring)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import requests

from app.numbers import company_today
from tests.conftest import SandboxCompany
from tests.sandbox.expense_support import artifact

SCREENS = Path(__file__).resolve().parents[1] / "artifacts" / "screens"
WIDTHS = (360, 1280, 1440, 1920)
HEIGHT = 900


@dataclass
class Seeded:
    """A company with one record of every kind, and the ids the pages need."""

    company: SandboxCompany
    income: int
    review: int
    expense: int
    partner: int


def _post(url: str, body, token: str | None = None) -> dict:
    headers = {"Authorization": f"Token {token}"} if token else {}
    response = requests.post(url, json=body, headers=headers, timeout=10)
    assert response.status_code in (200, 201), response.text
    return response.json()


def _income(base: str, company: SandboxCompany, **fields) -> dict:
    body = {"company_id": company.id, "partner_name": "Árvíztűrő Tükörfúrógép Kereskedelmi Kft.",
            "invoice_number": f"HOSSZU-SZAMLA-{company_today():%Y}-000123", **fields}
    return _post(f"{base}/_sandbox/incomes/", body)


def _policies(base: str, company: SandboxCompany) -> None:
    rule = {"name": "Licencek", "conditions": [{"field": "partner_name", "op": "contains",
                                                "value": "Kft"}], "set": {"job_number": "L-1"}}
    config = {"v": 2, "skip_for_multiple_match": False, "ignore_policies": [],
              "policies": [rule, {**rule, "name": "Kikapcsolt szabály", "enabled": False}]}
    response = requests.patch(f"{base}/2/company-info/update/{company.id}/", timeout=10,
                              headers={"Authorization": f"Token {company.tokens['admin']}"},
                              json={"income_policies": config})
    assert response.status_code == 200, response.text


def _taxes(base: str, company: SandboxCompany) -> None:
    token = company.tokens["admin"]
    _post(f"{base}/2/taxes/create/", [{"month": f"{company_today():%Y-%m}-01",
                                       "amount": "100000.00", "code": "103",
                                       "description": "SZJA"}], token)
    _post(f"{base}/2/salaries/create/", [{
        "month": f"{company_today():%Y-%m}-01", "amount": "450000.00", "name": "Kovács Éva",
        "tax_number": "8123456789", "account_number": "11784009-15490012"}], token)


def seed(base: str, company: SandboxCompany) -> Seeded:
    """Fill a fresh company: incomes (one overdue, one waiting for review), an expense with its
    PDF, a partner, a tax, a salary, two income policies (one switched off) and a bank account
    with one transaction."""
    income = _income(base, company, due_at="2020-01-31", issued_at="2020-01-02",
                     fulfilled_at="2020-01-02")
    review = _income(base, company, invoice_number="REVIEW-1", needs_review=True,
                     review_done=False)
    expense = _post(f"{base}/_sandbox/expenses/", {
        "company_id": company.id, "invoice_number": "KOLTSEG-2026-0042",
        "partner_name": "Szállító Zrt.", "paid_status": 1,
        "artifact": artifact(filename="koltseg-2026-0042.pdf")})  # the document panel is measured
    _taxes(base, company)
    _policies(base, company)
    account = _post(f"{base}/_sandbox/bank/accounts/", {  # both bank tables are measured
        "company_id": company.id, "name": "Főszámla", "opening_balance": "1500000.00",
        "account_number": "11700024-00000099-00000000"})
    _post(f"{base}/_sandbox/bank/transactions/", {
        "account_id": account["id"], "date": "2026-03-02", "amount": "-12500.00",
        "partner": "Szállító Zrt.", "invoice_number": "KOLTSEG-2026-0042"})
    partners = requests.get(f"{base}/1/partners/", timeout=10,
                            headers={"Authorization": f"Token {company.tokens['admin']}"}).json()
    rows = partners.get("results", partners)
    rows = rows.get("partners", rows) if isinstance(rows, dict) else rows
    return Seeded(company, income["id"], review["id"], expense["id"], rows[0]["id"])


def page_types(seeded: Seeded) -> dict[str, str]:
    """Every page type: name -> path."""
    c = f"/c/{seeded.company.id}"
    return {
        "dashboard": f"{c}/", "income-list": f"{c}/incomes/",
        "income-detail": f"{c}/incomes/{seeded.income}",
        "income-edit": f"{c}/incomes/{seeded.income}/edit", "income-new": f"{c}/incomes/new",
        "review-queue": f"{c}/review/", "review-screen": f"{c}/review/{seeded.review}",
        "expense-list": f"{c}/expenses/", "expense-detail": f"{c}/expenses/{seeded.expense}",
        "expense-edit": f"{c}/expenses/{seeded.expense}/edit",
        "partner-list": f"{c}/partners/", "partner-edit": f"{c}/partners/{seeded.partner}/",
        "tax-list": f"{c}/taxes/", "tax-new": f"{c}/taxes/new", "salary-list": f"{c}/salaries/",
        "salary-new": f"{c}/salaries/new", "catalogue": f"{c}/tags/",
        "settings": f"{c}/settings/", "policy-editor": f"{c}/policies/",
        "policy-history": f"{c}/policies/history", "sign-in": "/login",
        "bank": f"{c}/bank/", "vat-summary": f"{c}/vat/", "month-end": f"{c}/vat/month-end",
        "partner-card": f"{c}/partners/{seeded.partner}/card", "practice": "/practice",
        "review-log": f"{c}/review/actions", "documents": f"{c}/documents/",
    }


# Visible boxes that must not partly cover one another: controls, labels, headings, badges.
# A box is clipped by every scrolling/hidden-overflow ancestor first (a table scrolled inside
# its own box does not cover what is outside it). Nested boxes (one inside the other in the
# DOM) are allowed; overlaps of at most 1 px (shared borders) are not counted.
OVERLAPS_JS = """
() => {
  const SELECTOR = 'a, button, input:not([type=hidden]), select, textarea, label, summary, ' +
    '[tabindex]:not([tabindex="-1"]), h1, h2, h3, .badge, .field__label, .stat';
  const clip = (el, r) => {
    let box = {l: r.left, t: r.top, r: r.right, b: r.bottom};
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const q = p.getBoundingClientRect();
      box = {l: Math.max(box.l, q.left), t: Math.max(box.t, q.top),
             r: Math.min(box.r, q.right), b: Math.min(box.b, q.bottom)};
    }
    return box;
  };
  const fixed = el => {
    for (let p = el; p; p = p.parentElement) {
      const pos = getComputedStyle(p).position;
      if (pos === 'fixed' || pos === 'sticky') return true;
    }
    return false;
  };
  const items = [];
  for (const el of document.querySelectorAll(SELECTOR)) {
    const shown = el.checkVisibility({visibilityProperty: true, opacityProperty: true});
    if (!shown || fixed(el)) continue;
    if (el.closest('.visually-hidden, .skip-link, template')) continue;
    const rects = [...el.getClientRects()].map(r => clip(el, r))
      .filter(b => b.r - b.l > 1 && b.b - b.t > 1);
    if (rects.length) items.push({el, rects});
  }
  const classes = el => typeof el.className === 'string' && el.className.trim()
    ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
  const text = el => (el.innerText || el.value || el.getAttribute('aria-label') || '').trim();
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + classes(el) +
    ' "' + text(el).slice(0, 30) + '"';
  const found = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i], b = items[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      if (a.el.tagName === 'LABEL' && a.el.control === b.el) continue;
      const cross = (x, y) => Math.min(x.r, y.r) - Math.max(x.l, y.l) > 1 &&
        Math.min(x.b, y.b) - Math.max(x.t, y.t) > 1;
      const hit = a.rects.some(x => b.rects.some(y => cross(x, y)));
      if (hit) found.push(name(a.el) + ' overlaps ' + name(b.el));
    }
  }
  return found.slice(0, 20);
}
"""

PAGE_WIDTH_JS = "() => [document.scrollingElement.scrollWidth, window.innerWidth]"

# Boxes whose content runs out past their own edge (text crossing a card's border), unless an
# ancestor below <body> scrolls it (a wide table inside its scrolling wrapper is not counted).
SPILL_JS = """
() => {
  const visible = s => s.overflowX === 'visible';
  const scrolled = el => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  return [...document.querySelectorAll('body *')].filter(el => {
    if (el.closest('.visually-hidden, .skip-link, template, svg')) return false;
    const s = getComputedStyle(el);
    if (s.display === 'inline' || !visible(s) || !el.checkVisibility()) return false;
    return el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !scrolled(el);
  }).map(el => el.tagName.toLowerCase() + '.' +
    String(el.className).trim().split(/\\s+/).join('.') + ' ' + el.scrollWidth + 'px in ' +
    el.clientWidth + 'px "' + (el.innerText || '').trim().slice(0, 30) + '"').slice(0, 20);
}
"""

# The focused element shows a ring: an outline or a box-shadow (on itself or, for a visually
# hidden input, on the label that wraps it).
FOCUS_RING_JS = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const ring = e => {
    const s = getComputedStyle(e);
    return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
  };
  const label = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' ' +
    (el.innerText || el.getAttribute('aria-label') || el.name || '').trim().slice(0, 30);
  return {label, ring: ring(el) || (el.labels && [...el.labels].some(ring))};
}
"""
