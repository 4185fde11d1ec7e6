-- The raw archive keeps each record's JSON as the API sent it (as on SQLite): json stores the
-- text itself, where jsonb kept only its content (keys reordered, spacing and numbers its own).
-- The documents an earlier release archived cannot get their text back: they keep jsonb's.
ALTER TABLE "raw_records" ALTER COLUMN "document" SET DATA TYPE json;
