/**
 * The site server's history in the app (issue #24): GET /site/jobs (who, where, when, the first counter numbers),
 * and a reprint — POST /site/jobs/{id}/reprint answers the job's labels with the same counter values and the
 * template revision it printed (the site records the reprint and reserves no number) — printed on this
 * computer's printer through the local job queue.
 */
import { SiteJobDetailSchema, SiteJobListSchema, type SiteJob } from '../../src/label-api/site-api';
import { RESPONSE_SCHEMAS } from '../../src/label-api/routes';
import type { JobView, PrinterView, SiteJobView } from '../../src/ipc/contract';
import { IpcError } from '../../src/ipc/errors';
import type { SiteClient } from '../../src/backends/site-client';
import type { Connection } from './connection';
import type { AppJobs } from './jobs';

/** Routes whose answer is the labels themselves (markups), which this computer can print. */
const LABEL_ROUTES = new Set(['fetch-markups', 'print']);

export interface SiteHistory {
  list(before?: number, limit?: number): Promise<{ jobs: SiteJobView[]; nextBefore: number | null }>;
  reprint(id: number, printer: PrinterView): Promise<{ job: JobView | null; message: string }>;
}

const viewOf = (j: SiteJob): SiteJobView => ({
  id: j.id,
  route: j.route,
  template: j.template,
  labels: j.labels,
  key: j.api_key,
  instance: j.instance,
  printer: j.printer,
  counters: j.counters,
  reprintOf: j.reprint_of,
  error: j.error,
  createdAt: j.created_at,
  reprintable: LABEL_ROUTES.has(j.route) && j.error === null,
});

export function siteHistory(deps: { connection: Connection; jobs: AppJobs }): SiteHistory {
  const withSite = async <T>(call: (client: SiteClient) => Promise<T>): Promise<T> => {
    const answer = await deps.connection.withSite(call);
    if (!answer)
      throw new IpcError(
        'invalid',
        "The site's history is there only with the site server as the backend: set it up in Settings.",
        null,
        'settings',
      );
    return answer.value;
  };

  return {
    async list(before, limit = 50) {
      const query = new URLSearchParams({ limit: String(limit) });
      if (before !== undefined) query.set('before', String(before));
      const page = await withSite((c) => c.getJson(`/site/jobs?${query}`, SiteJobListSchema));
      return { jobs: page.jobs.map(viewOf), nextBefore: page.next_before };
    },
    async reprint(id, printer) {
      const { job } = await withSite((c) => c.getJson(`/site/jobs/${id}`, SiteJobDetailSchema));
      if (!viewOf(job).reprintable)
        throw new IpcError(
          'invalid',
          job.error !== null
            ? `Job ${id} made no labels (${job.error}): print it again from the Print screen.`
            : `Job ${id} was a ${job.route} request: reprint it where it was made.`,
        );
      const markups = await withSite((c) =>
        c.postJson(`/site/jobs/${id}/reprint`, RESPONSE_SCHEMAS['fetch-markups'], {}),
      );
      return deps.jobs.printMarkups({ source: 'site', name: job.template }, markups, printer);
    },
  };
}
