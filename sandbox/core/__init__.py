"""Shared sandbox infrastructure: database, errors, auth, paging, faults, request log, server."""
