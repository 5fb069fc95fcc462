"""Command-line interface of reviewer."""
