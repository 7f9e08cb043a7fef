"""A class's review histories in one PostgreSQL database (psycopg 3), one role per student."""
