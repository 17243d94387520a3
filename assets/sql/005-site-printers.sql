-- LabelDesk site database, version 5 (issue #24): the site's relay printers and their profiles, shared by every
-- instance (`labeldesk site-printers add|list|remove --database`), instead of a printers file kept identical on
-- each. Route 03/04's printer_id is `id`; the print queue's drivers drive every printer of this table they reach.
-- Rows are checked by LabelDesk with the printers file's rules (src/printers/printers-file.ts) and the printer
-- profiles' (src/printers/profiles.ts) before they are written; the constraints below are the last line.
CREATE TABLE site_printers (
  -- The API's printer_id (print_jobs.printer_id and printer_leases.printer_id are integers).
  id integer PRIMARY KEY CHECK (id >= 0),
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 120),
  -- The canonical printer URI (tcp://, usb://, serial://, cups://, file://); never credentials.
  uri text NOT NULL CHECK (uri ~ '^(tcp|usb|serial|cups|file)://'),
  -- The printer profile's settings (dpi and whether a person set it, darkness, offsets, width, media), without
  -- the uri and name above; NULL: none (the printer is asked its dpi, its own settings stay).
  profile jsonb CHECK (profile IS NULL OR jsonb_typeof(profile) = 'object'),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The audit log records printers added or changed and removed (by `labeldesk site-printers`).
ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (
  'key-created', 'key-regenerated', 'key-revoked', 'template-saved', 'printer-saved', 'printer-removed'));
