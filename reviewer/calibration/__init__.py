"""Grader calibration in the store: grading files opened in the app and the human scores
of their answers, with the reviewer's name and an audit trail (no Qt).

``sets``: open a grading file (stored whole, found again by its digest), list and load
sets. ``scores``: score one answer (1–5) or rank a group, each change appended to the
calibration audit trail. The comparison itself is pure: ``reviewer.graders.calibrate``.
"""
