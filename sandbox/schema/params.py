"""Query and path parameters shared by several operations."""
from __future__ import annotations

from .model import T, path_param, query

PAGE = query("page", {"type": "integer", "minimum": 1},
             T("Oldalszám, 1-től.", "Page number, from 1."))
PAGE_SIZE = query("page_size", {"type": "integer", "minimum": 1, "maximum": 1000},
                  T("Egy oldal mérete (alapértelmezés 20).", "Page size (default 20)."))
CURSOR = query("cursor", "string",
               T("Lapozó kurzor: a next / previous hivatkozásból.",
                 "Paging cursor, taken from the next / previous link."))
PAGE_NUMBER = (PAGE, PAGE_SIZE)
CURSOR_PAGE = (CURSOR, PAGE_SIZE)
ORDERING = query("ordering", "string",
                 T("Rendezés mezőnév szerint; csökkenő sorrend: - előtag.",
                   "Order by a field name; prefix - for descending."))
FIELDS_EXPAND = query("fields", "string",
                      T("Bővítések vesszővel: items, payment_history, accounting.",
                        "Comma-separated expansions: items, payment_history, accounting."))

INCOME_ID = path_param("income_id", T("A bevétel azonosítója.", "The income id."))
EXPENSE_ID = path_param("expense_id", T("A költség azonosítója.", "The expense id."))
PARTNER_ID = path_param("partner_id", T("A partner azonosítója.", "The partner id."))
COMPANY_ID = path_param("company_id", T("A cég azonosítója.", "The company id."))
VAT_CATEGORY_ID = path_param("vat_category_id",
                             T("Az ÁFA-kategória azonosítója.", "The VAT category id."))
