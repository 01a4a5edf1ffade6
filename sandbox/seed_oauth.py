"""Demo users and the demo OAuth2 client: see sandbox/oauth/seed.py."""
from .oauth.seed import seed_demo  # noqa: F401
