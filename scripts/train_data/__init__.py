"""Hand-written ordinary rationales that train the detector (scripts/make_train_ordinary.py)."""
