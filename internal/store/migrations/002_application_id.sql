-- Mark the file as an arbiter store ("Arbi"), so that Open can tell it from another
-- program's SQLite database and refuse to touch the latter. Stores written before this
-- migration are recognised by their schema_migrations table and marked here.
PRAGMA application_id = 1098015337;
