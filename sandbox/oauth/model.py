"""Users who sign in on the consent page, their companies, and OAuth2 clients, codes, tokens.

Access and refresh tokens and client secrets are stored as SHA-256 digests (like API tokens in
sandbox/company/model.py); only the short-lived, single-use authorization code is kept in clear.
"""
from __future__ import annotations

import secrets

from authlib.integrations.sqla_oauth2 import (
    OAuth2AuthorizationCodeMixin,
    OAuth2ClientMixin,
    OAuth2TokenMixin,
)
from sqlalchemy import Boolean, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from sandbox.company.model import ROLES, Company, hash_token
from sandbox.core.model import Base

SECRET_METHODS = ("client_secret_basic", "client_secret_post")


class User(Base):
    """A person of the upstream service: signs in on the consent page, belongs to companies."""

    __tablename__ = "oauth_user"
    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(200), unique=True)
    first_name: Mapped[str] = mapped_column(String(100), default="")
    last_name: Mapped[str] = mapped_column(String(100), default="")
    has_2fa: Mapped[bool] = mapped_column(Boolean, default=True)
    memberships: Mapped[list[Membership]] = relationship(back_populates="user",
                                                         order_by="Membership.company_id")

    def get_user_id(self) -> int:
        """The id Authlib stores with codes and tokens."""
        return self.id

    @property
    def full_name(self) -> str:
        """Family name first, the Hungarian way."""
        return f"{self.last_name} {self.first_name}".strip()


class Membership(Base):
    """A user's role in one company (admin, bookkeeper or viewer)."""

    __tablename__ = "oauth_membership"
    __table_args__ = (UniqueConstraint("user_id", "company_id", name="uq_membership"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("oauth_user.id"), index=True)
    company_id: Mapped[int] = mapped_column(ForeignKey("company.id"), index=True)
    role: Mapped[str] = mapped_column(String(20), default="admin")
    user: Mapped[User] = relationship(back_populates="memberships")
    company: Mapped[Company] = relationship(lazy="joined")


class OAuthClient(Base, OAuth2ClientMixin):
    """A registered OAuth2 client; its secret is kept as a digest."""

    __tablename__ = "oauth_client"
    id: Mapped[int] = mapped_column(primary_key=True)

    def check_client_secret(self, client_secret: str) -> bool:
        """Compare the digest of the presented secret with the stored one."""
        return secrets.compare_digest(self.client_secret or "", hash_token(client_secret))

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        """A confidential client may send its secret in the Basic header or in the form."""
        return method in SECRET_METHODS


class AuthorizationCode(Base, OAuth2AuthorizationCodeMixin):
    """A code handed out by the consent page, with its PKCE challenge."""

    __tablename__ = "oauth_code"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("oauth_user.id", ondelete="CASCADE"))
    user: Mapped[User] = relationship()


class OAuthToken(Base, OAuth2TokenMixin):
    """An access token with its refresh token (both as digests)."""

    __tablename__ = "oauth_token"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("oauth_user.id", ondelete="CASCADE"))
    user: Mapped[User] = relationship(lazy="joined")

    def is_refresh_token_valid(self) -> bool:
        """A refresh token works once: until it is used or revoked."""
        return not self.refresh_token_revoked_at


def valid_role(role: str) -> bool:
    """Whether role is one of the sandbox's token roles."""
    return role in ROLES
