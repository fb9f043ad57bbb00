"""Read models rebuilt from the event log: DuckDB version table and views (and, later, FAISS
and keyword indexes). Data flows one way: log -> projection -> queries."""
