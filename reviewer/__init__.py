"""reviewer: review the refusals of an automatic grader, domain logic (no Qt)."""

__version__ = "0.1.0"
