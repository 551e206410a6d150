"""The database: schema, migrations, the group-commit writer and the queries (SQLite or PostgreSQL)."""
