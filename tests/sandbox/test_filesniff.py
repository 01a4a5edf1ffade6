"""Content sniffing behind the create rule (spec 4.3) and artifact downloads (upstream-notes)."""
import pytest
from expense_support import JPEG, PDF, PNG, XML

from sandbox.core.filesniff import content_type, kind_from_name, sniff


@pytest.mark.parametrize(("data", "kind"), [
    (PDF, "pdf"), (b"\n%PDF-1.7\n...", "pdf"), (PNG, "png"), (JPEG, "jpg"),
    (b"\xff\xd8\xff\xdb rest", "jpg"), (XML, "xml"), (b"\xef\xbb\xbf<?xml version='1.0'?><a/>",
                                                      "xml"),
    (b"  \n<InvoiceData xmlns='x'>1</InvoiceData>", "xml"),
    (b"<!-- export --><n:Szamla xmlns:n='u'/>", "xml"),
    (b"<!DOCTYPE note><note/>", "xml")])
def test_sniff_recognises_real_files(data, kind):
    assert sniff(data) == kind


@pytest.mark.parametrize("data", [
    b"", b"hello", b"MZ\x90\x00", b"GIF89a", b"PK\x03\x04", b"x%PDF-1.4", b"\x89PNX",
    b"\xff\xd8", b"<html><body/></html>", b"<!DOCTYPE html><html></html>", b"< notatag",
    b"<!-- unterminated"])
def test_sniff_rejects_everything_else(data):
    assert sniff(data) is None


def test_kind_from_name_reads_the_extension_case_insensitively():
    assert kind_from_name("SCAN.JPEG") == "jpg"
    assert kind_from_name("noext") is None and kind_from_name("a.txt") is None


def test_content_type_prefers_the_content_over_the_name():
    assert content_type("a.pdf", PNG) == "image/png"
    assert content_type("a.pdf", b"unknown") == "application/pdf"
    assert content_type("blob", b"unknown") == "application/octet-stream"
