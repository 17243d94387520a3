-- LabelDesk site database, version 4 (issue #24): the site's audit log — who changed what the site prints with:
-- keys made, given a new secret or revoked (by `labeldesk keys … --database`), templates saved (through
-- PUT /site/templates), relay printers added or removed. The labels themselves are in `jobs` (the history).
-- Append-only: no statement of LabelDesk updates or deletes a row, and the triggers below refuse it, whoever asks.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  -- Who: an API key id for what came through the API; `cli:<OS user>@<host>` for the labeldesk command.
  actor text NOT NULL,
  action text NOT NULL CHECK (action IN ('key-created', 'key-regenerated', 'key-revoked', 'template-saved')),
  -- What: the key id or the template name.
  subject text NOT NULL,
  -- The rest, for people: a template's revision, a key's allowance. Never a secret or its hash.
  detail jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_subject ON audit_log (subject, id);

CREATE FUNCTION ld_audit_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only';
END
$$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION ld_audit_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION ld_audit_append_only();
