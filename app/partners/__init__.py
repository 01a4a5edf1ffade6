"""Partners (customers and vendors): searchable list, create, edit (URLs under
/c/<company_id>/partners/, DESIGN.md)."""
from __future__ import annotations

from app.auth import company_blueprint

bp = company_blueprint("partners", __name__, url_prefix="/partners")

from app.partners import views  # noqa: E402,F401
