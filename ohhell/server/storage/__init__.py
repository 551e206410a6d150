"""The database (SQLite or PostgreSQL): ``schema`` (tables, migrations), ``writer`` (the
group-commit writer), ``store`` (``Store``, the facade), ``rows`` (the stored values),
``errors`` and ``kinds`` (``TableStatus``, ``SeatKind``)."""
