-- How a run's models are opened and its replies read, recorded with the run (issue 26):
-- models is a JSON array of the run's model specs (label, the provider model it asks,
-- its parameters); reader is the reader of the run's kind with its settings (for the
-- benchmark: the taxonomy and lexicons as text), so that every machine that answers or
-- reads the run reads its replies the same way. '' for runs recorded before.
ALTER TABLE runs ADD COLUMN models TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN reader TEXT NOT NULL DEFAULT '';
