"""Every message the policy engine reports, as English msgids marked for Babel."""


def N_(s):
    """Mark s for translation without translating it (the app translates later)."""
    return s


class Worded:
    """A finding or change carrying a `message` msgid and its `params`."""

    message: str
    params: dict

    def text(self, gettext=None):
        """Return the message filled in, translated by gettext when one is given."""
        return (gettext or str)(self.message) % self.params


# Whole configuration
CONFIG_NOT_OBJECT = N_("The policy settings must be an object, or null for no policies.")
VERSION_MISSING = N_('The policy settings lack their format version ("v": 2).')
VERSION_UNSUPPORTED = N_("The policy format is version %(found)s; only version 2 is supported.")
NOT_BOOL = N_("This must be true or false.")
NOT_LIST = N_("This must be a list.")
UNKNOWN_KEY = N_("Bookdesk does not use the setting %(key)s here; it is kept as it is.")

# Rules (policies and ignore policies)
RULE_NOT_OBJECT = N_("Each rule must be an object with a name and conditions.")
NAME_MISSING = N_("Give the rule a name.")
NAME_DUPLICATE = N_("Another rule is already called %(name)s; give each rule its own name.")
MATCH_INVALID = N_('Choose whether "all" conditions or "any" condition must hold.')
NO_CONDITIONS = N_("This rule has no conditions, so it applies to every income.")
IGNORE_NO_CONDITIONS = N_(
    "An ignore rule needs at least one condition; without one it would skip every income."
)

# Conditions
CONDITION_NOT_OBJECT = N_(
    "Each condition must be an object with a field, a comparison and a value."
)
FIELD_MISSING = N_("Choose which income field the condition looks at.")
FIELD_UNKNOWN = N_("There is no income field called %(field)s.")
OP_MISSING = N_("Choose how the condition compares.")
OP_UNKNOWN = N_("There is no comparison called %(op)s.")
TEXT_OP_ON_NUMBER = N_(
    "%(field)s is a number: compare it with equals, greater than, less than or between, "
    "not with %(op)s."
)
NUMBER_OP_ON_TEXT = N_("%(field)s is text: %(op)s works only on amounts and the income type.")
NEED_TEXT = N_("Enter a text to compare with.")
EMPTY_TEXT = N_("Enter the text to look for; an empty text would match every income.")
NEED_NUMBER = N_("Enter a number, such as 1500 or 1500.50.")
CURRENCY_CODE = N_("Give the currency as its three-letter code, such as HUF or EUR.")
BETWEEN_INVALID = N_("Between needs two values, lowest first.")
IN_INVALID = N_("Give a list of one or more values.")
REGEX_INVALID = N_("This is not a valid regular expression: %(error)s.")

# What a policy sets
SET_NOT_OBJECT = N_("What the rule sets must be an object.")
SETS_NOTHING = N_("This rule does not set anything.")
REF_INVALID = N_("Use the id (a whole number) of an existing record, or the name of a new one.")
JOB_NUMBER_INVALID = N_("The job number must be text.")
TAGS_NOT_LIST = N_("Tags must be a list of tag ids or names of new tags.")
TAG_INVALID = N_("Use the id (a whole number) of an existing tag, or the name of a new one.")

# Splits
SPLIT_EMPTY = N_("A split needs a list of one or more parts.")
PART_NOT_OBJECT = N_("Each part of a split must be an object.")
PART_KIND = N_("Give each part either a percent or an amount, not both.")
PERCENT_RANGE = N_("A percent must be more than 0 and at most 100.")
AMOUNT_NOT_POSITIVE = N_("An amount must be more than 0.")
AMOUNT_PLACES = N_("An amount can have at most two decimal places.")
PERCENT_SUM = N_("The percents add up to %(total)s; they must add up to exactly 100.")

# Why an evaluated income needs review
REVIEW_MULTIPLE = N_("More than one rule matches this income, so none was applied: %(names)s.")
REVIEW_SPLIT_MISMATCH = N_(
    "The split amounts add up to %(parts)s, not to the income's gross amount of %(gross)s."
)
REVIEW_SPLIT_EXCEEDS = N_(
    "The split amounts add up to %(parts)s, more than the income's gross amount of %(gross)s."
)
REVIEW_SPLIT_VAT = N_(
    "The income has assignments with different VAT rates, so it cannot be split automatically."
)

# What changes between two configurations
CONFIG_DELETED = N_("All policy settings will be deleted.")
SWITCH_ON = N_(
    "When more than one rule matches an income, none will be applied and the income will "
    "need review."
)
SWITCH_OFF = N_("When more than one rule matches an income, the first one in the list will apply.")
OTHER_SETTINGS = N_("Other settings changed.")

POLICY_CHANGES = {
    "added": N_("Rule %(name)s added."),
    "removed": N_("Rule %(name)s removed."),
    "enabled": N_("Rule %(name)s switched on."),
    "disabled": N_("Rule %(name)s switched off."),
    "match_all": N_("Rule %(name)s now needs all of its conditions."),
    "match_any": N_("Rule %(name)s now needs any one of its conditions."),
    "conditions": N_("Rule %(name)s: conditions changed."),
    "actions": N_("Rule %(name)s: what it sets changed."),
    "changed": N_("Rule %(name)s: other settings changed."),
    "moved": N_("Rule %(name)s moved to position %(position)s."),
}
IGNORE_CHANGES = {
    "added": N_("Ignore rule %(name)s added."),
    "removed": N_("Ignore rule %(name)s removed."),
    "enabled": N_("Ignore rule %(name)s switched on."),
    "disabled": N_("Ignore rule %(name)s switched off."),
    "match_all": N_("Ignore rule %(name)s now needs all of its conditions."),
    "match_any": N_("Ignore rule %(name)s now needs any one of its conditions."),
    "conditions": N_("Ignore rule %(name)s: conditions changed."),
    "changed": N_("Ignore rule %(name)s: other settings changed."),
    "moved": N_("Ignore rule %(name)s moved to position %(position)s."),
}

# Limits on a configuration from outside the editor (a file, or a draft kept earlier)
NOT_FINITE = N_("The file holds %(value)s, which is not a number a policy can use. Write the "
                "number itself instead.")
TOO_MANY_DIGITS = N_("The file holds a number with more than %(max)s digits.")
TOO_DEEP = N_("The policy settings are nested more than %(max)s levels deep; policy settings "
              "are never nested that deep.")
TOO_MANY_VALUES = N_("The policy settings hold more than %(max)s values.")
TOO_MANY_RULES = N_("The policy settings hold more than %(max)s rules.")
TEXT_TOO_LONG = N_("The text at %(where)s is longer than %(max)s characters.")
NON_FINITE_VALUE = N_("The number at %(where)s is not finite (NaN or infinity); write a number "
                      "instead.")
