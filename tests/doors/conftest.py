from tests.core.conftest import any_store, store

__all__ = ["any_store", "store"]
