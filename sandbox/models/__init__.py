"""All sandbox models; importing this package registers every table on Base.metadata."""
from .base import Base, Money, money_str, utcnow  # noqa: F401
from .catalog import ExpenseType, LedgerNumber, RevenueType, Tag, VatCategory  # noqa: F401
from .core import ROLES, ApiToken, Company, Currency, Partner, hash_token  # noqa: F401
