"""Time: timestamps in the company's time zone (TIMEZONE, default Europe/Budapest), date-only
values never shifted, relative times in Babel's words."""
from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from babel.dates import format_date as babel_date
from babel.dates import format_time as babel_time
from flask_babel import force_locale

from app import ConfigError, create_app
from app.numbers import format_date, format_datetime, format_relative
from app.store.history import recent_actions
from app.templating import Days
from tests.app.conftest import signed_in
from tests.app.expenses_helpers import list_args
from tests.app.test_review_support import open_screen, review_base, step, waiting

SUMMER = "2024-07-01T10:00:00Z"  # 12:00 in Budapest (CEST)
LATE_WINTER = "2024-01-15T23:30:00+00:00"  # already 16 January in Budapest (CET)


def _app(app_config, **overrides):
    return create_app({**app_config, **overrides})


def test_timestamps_are_shown_in_budapest_time_by_default(app):
    with app.test_request_context("/"):
        with force_locale("hu"):
            assert format_datetime(SUMMER) == "2024. 07. 01. 12:00"
        with force_locale("en"):
            # the day as every English date is written, not the numeric short form
            assert format_datetime(SUMMER) == "Jul 1, 2024, 12:00 PM"
            assert format_datetime(LATE_WINTER) == "Jan 16, 2024, 12:30 AM"


def test_a_timestamps_day_is_its_day_in_the_company_zone(app):
    with app.test_request_context("/"), force_locale("en"):
        assert format_date(LATE_WINTER) == "Jan 16, 2024"
        assert format_date(datetime(2024, 1, 15, 23, 30, tzinfo=UTC)) == "Jan 16, 2024"


def test_a_naive_timestamp_is_read_as_utc(app):
    with app.test_request_context("/"), force_locale("en"):
        assert format_datetime(datetime(2024, 7, 1, 10, 0)) == format_datetime(SUMMER)


@pytest.mark.parametrize("zone", ["Europe/Budapest", "America/Los_Angeles", "Pacific/Kiritimati"])
def test_date_only_values_are_never_shifted(app_config, zone):
    app = _app(app_config, TIMEZONE=zone)
    with app.test_request_context("/"), force_locale("en"):
        assert format_date("2024-01-15") == "Jan 15, 2024"
        assert format_date(date(2024, 1, 15)) == "Jan 15, 2024"
        assert Days()["2024-12-31"] == "Dec 31, 2024"


def test_the_time_zone_is_configurable(app_config, monkeypatch):
    app = _app(app_config, TIMEZONE="America/New_York")
    with app.test_request_context("/"), force_locale("en"):
        assert format_datetime(SUMMER) == "Jul 1, 2024, 6:00 AM"
        assert format_date(LATE_WINTER) == "Jan 15, 2024"
    monkeypatch.setenv("BOOKDESK_TIMEZONE", "Asia/Tokyo")
    assert create_app(app_config).config["TIMEZONE"] == "Asia/Tokyo"


def test_an_unknown_time_zone_stops_the_start(app_config):
    with pytest.raises(ConfigError, match="BOOKDESK_TIMEZONE"):
        _app(app_config, TIMEZONE="Mars/Olympus_Mons")


@pytest.mark.parametrize(("locale", "delta", "expected"), [
    ("hu", timedelta(minutes=-3), "3 perccel ezelőtt"),
    ("en", timedelta(minutes=-3), "3 minutes ago"),
    ("en", timedelta(hours=2), "in 2 hours"),
    ("hu", timedelta(days=-1), "1 nappal ezelőtt"),
])
def test_relative_times_come_from_babel(app, locale, delta, expected):
    now = datetime(2024, 7, 1, 10, 0, tzinfo=UTC)
    with app.test_request_context("/"):
        assert format_relative(now + delta, locale, now=now) == expected
        assert format_relative("2024-07-01T09:57:00Z", locale, now=now) == \
            format_relative(now - timedelta(minutes=3), locale, now=now)


def test_the_review_log_shows_action_times_in_the_company_zone(app_config, company, api):
    app = _app(app_config, TIMEZONE="Asia/Tokyo")
    client = app.test_client()
    created = waiting(api)
    step(client, open_screen(client, f"{review_base(client, company)}{created['id']}"), "done")
    with app.app_context():
        [action] = recent_actions(company.id)
    page = client.get(f"/c/{company.id}/review/actions").get_data(as_text=True)
    moment = action.created_at.replace(tzinfo=action.created_at.tzinfo or UTC)
    tokyo, utc = (_shown(moment.astimezone(zone)) for zone in (ZoneInfo("Asia/Tokyo"), UTC))
    assert tokyo in page and utc not in page


def _shown(local: datetime) -> str:
    """An English page's date and time, written here with Babel apart from the app."""
    clock = babel_time(local, "short", locale="en").replace("\u202f", " ")
    return f"{babel_date(local, 'medium', locale='en')}, {clock}"


def test_the_undo_bar_says_how_long_ago_the_action_was(client, company, api):
    created = waiting(api)
    base = review_base(client, company)
    step(client, open_screen(client, f"{base}{created['id']}"), "done")
    html = client.get(f"{base}{created['id']}").get_data(as_text=True)
    bar = html[html.index('id="review-undo"'):]
    assert re.search(r'<time datetime="[^"]+" title="[^"]+">\d+ seconds? ago</time>', bar)


def test_changed_since_is_read_in_the_company_zone_by_default(app_config, company, sandbox_log):
    client = _app(app_config, TIMEZONE="Asia/Tokyo").test_client()
    base = signed_in(client, company, "expenses/")
    sandbox_log.reset()
    day = (datetime.now(UTC) - timedelta(days=1)).strftime("%Y-%m-%d")
    html = client.get(f"{base}?since={day}T09:00").get_data(as_text=True)
    assert list_args(sandbox_log, company.id)[-1]["updated_since"] == [f"{day}T09:00:00+09:00"]
    assert '<option selected value="Asia/Tokyo">Asia/Tokyo</option>' in html
