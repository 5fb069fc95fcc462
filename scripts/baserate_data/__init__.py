"""Hand-written judge rationales for the base-rate development runs (scripts/make_baserate.py)."""
