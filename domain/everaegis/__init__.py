"""Ever Aegis, Simpleton variant: a pure decider (``decide``/``evolve``) with prompts and redaction."""
