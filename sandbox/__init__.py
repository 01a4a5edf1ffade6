"""The sandbox: a faithful emulator of the upstream accounting data API on SQLite."""
from __future__ import annotations

import random

from flask import Flask

from sandbox import (
    audit,
    bank,
    catalog,
    company,
    controls,
    documents,
    expenses,
    incomes,
    ledger,
    oauth,
    partners,
    schema,
    taxes,
)
from sandbox.audit import seed as audit_seed
from sandbox.bank import seed as bank_seed
from sandbox.catalog.seed import seed_currencies
from sandbox.company.seed import seed_demo as seed_companies
from sandbox.core import auth, db, errors, faults, requestlog
from sandbox.core.model import Base
from sandbox.core.routing import RowIdConverter
from sandbox.documents import seed as documents_seed
from sandbox.documents.model import seed_document_types
from sandbox.expenses import seed as expenses_seed
from sandbox.incomes import seed as incomes_seed
from sandbox.oauth import seed as oauth_seed
from sandbox.partners import seed as partners_seed
from sandbox.policies import model as policies_model
from sandbox.policies import seed as policies_seed
from sandbox.taxes import seed as taxes_seed

RESOURCES = (company, catalog, ledger, partners, incomes, expenses, documents, taxes, bank, audit,
             schema, controls, oauth)
# Each resource's seed_demo(session, companies, rng), in dependency order.
DEMO_SEEDS = (partners_seed, incomes_seed, expenses_seed, bank_seed, documents_seed, taxes_seed,
              policies_seed, audit_seed, oauth_seed)
DEMO_RANDOM_SEED = 20261121
MODELS = (policies_model,)  # tables no blueprint imports; listed so create_all knows them


def create_app(db_url: str = "sqlite://", seed: str = "empty") -> Flask:
    """Build the sandbox API app on db_url, seeded with `empty` or `demo` data."""
    app = Flask(__name__)
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    app.url_map.strict_slashes = False
    app.url_map.converters["int"] = RowIdConverter
    faults.init_app(app)
    requestlog.init_app(app)
    auth.init_app(app)
    db.init_app(app, db_url)
    errors.register_handlers(app)
    for resource in RESOURCES:
        app.register_blueprint(resource.make_blueprint())
    _create_schema(app, seed)
    return app


def seed_demo(session) -> dict:
    """Create the demo companies and tokens, then let each resource add its demo data."""
    companies = seed_companies(session)
    for module in DEMO_SEEDS:
        module.seed_demo(session, companies, random.Random(DEMO_RANDOM_SEED))
        session.flush()
    return companies


def _create_schema(app: Flask, seed: str) -> None:
    engine = app.extensions["sandbox_engine"]
    Base.metadata.create_all(engine)
    session = app.extensions["sandbox_sessionmaker"]()
    with session.begin():
        seed_currencies(session)
        seed_document_types(session)
        if seed == "demo":
            seed_demo(session)
    session.close()
