-- LabelDesk site database, version 6 (issue #24): print-relay requests sent again are delivered once. A request of
-- route 03/04 with an `Idempotency-Key` header queues its job under that key (per API key); the same key again —
-- a client retrying after its connection dropped, on any instance — waits for that job and gets its answer
-- instead of queueing a second job. Without the header nothing changes.
ALTER TABLE print_jobs
  ADD COLUMN idempotency_key text CHECK (idempotency_key IS NULL OR length(idempotency_key) BETWEEN 1 AND 200),
  -- The resolution route 03 rendered at: what a repeated request answers as printer_dpi.
  ADD COLUMN printer_dpi integer;
CREATE UNIQUE INDEX print_jobs_idempotency ON print_jobs (api_key, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
