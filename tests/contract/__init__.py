"""The rule-set contract suite: every registered rule set, and a toy one that lives only here."""
