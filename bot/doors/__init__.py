"""The doors."""
