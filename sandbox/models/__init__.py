"""All sandbox models; every submodule is imported so its tables join Base.metadata."""
import importlib
import pkgutil

from .base import Base, Money, money_str, utcnow  # noqa: F401
from .catalog import ExpenseType, LedgerNumber, RevenueType, Tag, VatCategory  # noqa: F401
from .core import ROLES, ApiToken, Company, Currency, Partner, hash_token  # noqa: F401

for _info in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_info.name}")
