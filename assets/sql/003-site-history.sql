-- LabelDesk site database, version 3 (issue #24): the history the site's /site/jobs and /site/labels routes read,
-- and what a reprint needs to render a job again. (002 is the print queue's.)

-- Every label request is recorded now (not only those with counter fields), with what was asked, so it can be
-- reprinted with the same counter values.
ALTER TABLE jobs
  -- The request as the route parsed it (label_name, amount, apiData, printer_id, dpi, max_width_dots, strict).
  ADD COLUMN request jsonb,
  -- The site template's revision that was rendered; NULL for a bundled or folder template.
  ADD COLUMN template_revision integer,
  -- Counter field name → what each label adds to its number: the field's step, 0 for a counter whose copies share
  -- one number (an SSCC). Label n (1-based) printed counters.f + (n - 1) * counter_steps.f.
  ADD COLUMN counter_steps jsonb NOT NULL DEFAULT '{}',
  -- A reprint: the job it repeats, and for each of its labels the number of the label it repeats in the job whose
  -- counters it carries (counters and counter_steps are copied from there), so label k printed
  -- counters.f + (label_numbers[k] - 1) * counter_steps.f.
  ADD COLUMN reprint_of bigint REFERENCES jobs (id),
  ADD COLUMN label_numbers integer[],
  -- Why the request failed after it was recorded (its error kind), NULL when it did not: numbers it reserved
  -- are burned. A failed render made no label; a failed print-relay job may have printed its first labels
  -- (print_jobs.confirmed says how many), so a compliance answer reads both.
  ADD COLUMN error text;

-- The history's filters, newest first (keyset pagination by id).
CREATE INDEX jobs_template_id ON jobs (template, id);
CREATE INDEX jobs_key_id ON jobs (api_key, id);
CREATE INDEX jobs_printer_id ON jobs (printer, id) WHERE printer IS NOT NULL;

-- Keys that may save templates through PUT /site/templates/{name} (`labeldesk keys create --templates-write`).
ALTER TABLE api_keys ADD COLUMN can_edit_templates boolean NOT NULL DEFAULT false;
