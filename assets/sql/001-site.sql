-- LabelDesk site database, version 1 (issue #24): what several `labeldesk serve --database` instances share.
-- Plain SQL, run once by src/node/site/db.ts inside a transaction. Times are timestamptz; counts bigint.

-- API keys (spec §5): the key id, and its secret as an scrypt hash with a per-key salt (never the secret).
CREATE TABLE api_keys (
  key text PRIMARY KEY,
  salt text NOT NULL,
  hash text NOT NULL,
  scrypt jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  secret_created_at timestamptz NOT NULL,
  -- Copies this key may render in all; NULL = unlimited. used_copies counts what it has rendered (or holds).
  allowance bigint CHECK (allowance IS NULL OR allowance >= 0),
  used_copies bigint NOT NULL DEFAULT 0
);

-- Requests per key per minute across every instance: the last `limit` request times (Unix ms), a sliding window.
CREATE TABLE rate_windows (
  key text PRIMARY KEY,
  times bigint[] NOT NULL
);

-- Takes one request for p_key: 0 when allowed (and counted), else the ms until one more would be.
CREATE FUNCTION ld_rate_take(p_key text, p_limit integer, p_window bigint, p_now bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  t bigint[];
BEGIN
  INSERT INTO rate_windows (key, times) VALUES (p_key, '{}') ON CONFLICT (key) DO NOTHING;
  SELECT times INTO t FROM rate_windows WHERE key = p_key FOR UPDATE;
  t := ARRAY(SELECT x FROM unnest(t) AS x WHERE x > p_now - p_window ORDER BY x);
  IF cardinality(t) < p_limit THEN
    UPDATE rate_windows SET times = t || p_now WHERE key = p_key;
    RETURN 0;
  END IF;
  UPDATE rate_windows SET times = t WHERE key = p_key;
  RETURN greatest(1, t[1] + p_window - p_now);
END
$$;

-- The usage ledger (spec §1 rule 3): per key and route, requests that succeeded and the copies they rendered.
CREATE TABLE usage (
  key text NOT NULL,
  route text NOT NULL,
  requests bigint NOT NULL DEFAULT 0,
  copies bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (key, route)
);

-- Exported SVG files (spec §2.5, §3): served by token by any instance until they expire.
CREATE TABLE svg_files (
  token text PRIMARY KEY,
  svg bytea NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX svg_files_expiry ON svg_files (expires_at);

-- The site's templates (layered over the bundled ones), the JSON exactly as saved, and every earlier revision.
CREATE TABLE templates (
  name text PRIMARY KEY,
  body text NOT NULL,
  revision integer NOT NULL,
  saved_at timestamptz NOT NULL DEFAULT now(),
  saved_by text NOT NULL
);
CREATE TABLE template_revisions (
  name text NOT NULL,
  revision integer NOT NULL,
  body text NOT NULL,
  saved_at timestamptz NOT NULL,
  saved_by text NOT NULL,
  PRIMARY KEY (name, revision)
);

-- Counter fields' next numbers (as the workstation's job store keeps them): per template, printer and field;
-- an SSCC counter has template = printer = '' and field = 'gs1:sscc:<extension><company prefix>'.
CREATE TABLE counters (
  template text NOT NULL,
  printer text NOT NULL,
  field text NOT NULL,
  next bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (template, printer, field)
);

-- Every request that reserved counter numbers or printed: who (key), where (instance, printer), when, what.
CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  route text NOT NULL,
  template text NOT NULL,
  api_key text NOT NULL,
  instance text NOT NULL,
  printer text,
  labels integer NOT NULL,
  -- Counter field name → its first number (numbers run first, first + step, … for the job's labels).
  counters jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_created ON jobs (created_at);
