-- LabelDesk site database, version 2 (issue #24): the shared print queue of the print relay (routes 03/04).
-- Every relay job is a row, each of its labels a row with its bytes as sent; each printer is driven by one
-- instance at a time under a lease with a heartbeat. Why it is built this way: src/node/site/print-queue.ts.

-- One job per relay request: queued → printing → done | failed. `confirmed` counts the labels the printer
-- confirmed (always labels 1 to confirmed); possible_duplicates lists each resend whose first copy may have
-- printed (one entry per resend, ascending in time), as deliverLabels reports them.
CREATE TABLE print_jobs (
  id bigserial PRIMARY KEY,
  printer_id integer NOT NULL,
  format text NOT NULL CHECK (format IN ('zpl', 'pdf')),
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'printing', 'done', 'failed')),
  api_key text NOT NULL,
  -- The instance whose request queued it, and the last one that drove it.
  accepted_by text NOT NULL,
  driven_by text,
  labels integer NOT NULL CHECK (labels > 0),
  confirmed integer NOT NULL DEFAULT 0,
  possible_duplicates integer[] NOT NULL DEFAULT '{}',
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
-- The unfinished jobs, per printer in order: what the drivers look for.
CREATE INDEX print_jobs_open ON print_jobs (printer_id, id) WHERE state IN ('queued', 'printing');
CREATE INDEX print_jobs_created ON print_jobs (created_at);

-- Each label of a job (1-based number), as rendered once when the job was accepted. `sending`: its bytes may
-- have reached the printer, which did not confirm it yet — in doubt if its driver stops there. Deleted a while
-- after the job ended (keepLabelsMs); the job's row stays.
CREATE TABLE print_labels (
  job_id bigint NOT NULL REFERENCES print_jobs (id) ON DELETE CASCADE,
  number integer NOT NULL CHECK (number > 0),
  payload bytea NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'confirmed')),
  possible_duplicate boolean NOT NULL DEFAULT false,
  attempts integer NOT NULL DEFAULT 0,
  confirmed_at timestamptz,
  PRIMARY KEY (job_id, number)
);

-- Who drives each printer (printer_id of the printers file): valid while expires_at (the database's clock) is
-- ahead; the holder renews it by heartbeats and deletes it when it lets go. `epoch` is a fencing token, new at
-- each take: a holder's writes carry it, so a holder whose lease was taken over can write nothing more.
CREATE SEQUENCE printer_lease_epochs;
CREATE TABLE printer_leases (
  printer_id integer PRIMARY KEY,
  holder text NOT NULL,
  epoch bigint NOT NULL,
  taken_at timestamptz NOT NULL DEFAULT now(),
  renewed_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
