"""Records named by string in policies: listing them and resolving them to ids."""

from .schema import LEDGER_NUMBERS, REVENUE_TYPES, TAGS, rules

# Assignment key (and "set" key) -> record kind.
_ASSIGNMENT_REFS = {"revenue_type": REVENUE_TYPES, "ledger_number_id": LEDGER_NUMBERS}
_SET_REFS = {"revenue_type": REVENUE_TYPES, "ledger_number": LEDGER_NUMBERS}


def names_to_create(assignments):
    """Return {kind: sorted names} for the records assignments name instead of id."""
    return _collect(assignments, _ASSIGNMENT_REFS)


def names_in_config(config):
    """Return {kind: sorted names} for every record any policy or split part names by string."""
    found = []
    for policy in rules(config, "policies"):
        actions = policy.get("set") if isinstance(policy, dict) else None
        if isinstance(actions, dict):
            found.append(actions)
            found += [part for part in actions.get("split") or [] if isinstance(part, dict)]
    return _collect(found, _SET_REFS)


def _collect(items, refs):
    found = {}
    for item in items:
        for key, kind in refs.items():
            if isinstance(item.get(key), str):
                found.setdefault(kind, set()).add(item[key])
        tags = item.get("tags")
        for tag in tags if isinstance(tags, list) else []:
            if isinstance(tag, str):
                found.setdefault(TAGS, set()).add(tag)
    return {kind: sorted(names) for kind, names in sorted(found.items())}


def apply_names(outcome, resolve):
    """Return outcome's assignments with every name replaced by resolve(kind, name)'s id."""
    ids = {
        (kind, name): resolve(kind, name)
        for kind, names in names_to_create(outcome.assignments).items()
        for name in names
    }
    return [_resolved(item, ids) for item in outcome.assignments]


def _resolved(assignment, ids):
    result = dict(assignment)
    for key, kind in _ASSIGNMENT_REFS.items():
        if isinstance(result.get(key), str):
            result[key] = ids[(kind, result[key])]
    result["tags"] = list(
        dict.fromkeys(ids[(TAGS, tag)] if isinstance(tag, str) else tag for tag in result["tags"])
    )
    return result
