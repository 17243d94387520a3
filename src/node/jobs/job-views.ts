/**
 * Reading jobs for the job service (job-service.ts): a job or its detail (summary, label counts, possible
 * duplicates, the labels it reprints), how people find a label of a CSV job ("label 5 (record 5)"), and what
 * each label of a job carries (its record, counter numbers and typed values, followed back through reprints).
 */
import { zplFieldTexts } from '../../zpl/field-texts';
import type { Job } from '../../jobs/model';
import { reprintChain, type FirstLabel } from '../../jobs/reprint-chain';
import { JobNotFound } from '../../jobs/store';
import { parseTemplate } from '../../model/parse';
import type { Template } from '../../model/schema';
import { counterFields, counterSettings, formatCounter, jobLabelCounters } from '../../resolve/counters';
import type { JobDetail, JobLabel } from './job-service-types';
import type { JobSummary, SqliteJobStore } from './sqlite-job-store';

export interface JobViews {
  /** The stored job; throws JobNotFound. */
  mustJob(jobId: number): Job;
  /** The job's summary with its counts; throws JobNotFound. */
  detail(jobId: number): JobDetail;
  withCounts(summary: JobSummary): JobDetail;
  /** "label 5 (record 5)": how people find a label of a CSV job. */
  describeLabel(jobId: number, labelNumber: number): string;
  /**
   * The job whose rows and counters label `n` of a job was resolved from (reprints followed back; a reprint
   * that names no label `n` is where it stops), for one call's labels: each job is read once per call.
   */
  firstJobs(): (jobId: number, n: number) => FirstLabel;
  /** Every label of a job with what it carries. */
  labels(jobId: number): JobLabel[];
  /**
   * What is on a job, in short: the first `SUMMARY_VALUES` non-empty values of its first label (a name, a
   * tracking number), in the template's field order, reprints followed back (#42 item 12).
   */
  summary(jobId: number): { label: string; value: string }[];
}

/** How many values a job's summary shows. */
export const SUMMARY_VALUES = 2;
/** Job summaries kept (a job's first label never changes once the job is stored). */
const SUMMARY_CACHE = 2000;

export function jobViews(store: SqliteJobStore): JobViews {
  const mustJob = (jobId: number): Job => {
    const job = store.getJob(jobId);
    if (!job) throw new JobNotFound(`no job ${jobId}`);
    return job;
  };
  const detail = (jobId: number): JobDetail => {
    const [summary] = store.summaries({ id: jobId });
    if (!summary) throw new JobNotFound(`no job ${jobId}`);
    return withCounts(summary);
  };
  const withCounts = (summary: JobSummary): JobDetail => ({
    ...summary,
    counts: store.counts(summary.id),
    possibleDuplicates: store.possibleDuplicates(summary.id),
    reprintedLabels: summary.reprintOf === null ? null : (mustJob(summary.id).reprintOf?.labels ?? null),
  });

  const describeLabel = (jobId: number, labelNumber: number): string => {
    const job = mustJob(jobId);
    if (!job.rows.length || job.reprintOf) return `label ${labelNumber}`;
    const index = Math.floor((labelNumber - 1) / job.copies);
    return `label ${labelNumber} (record ${job.render?.sourceRows?.[index] ?? index + 1})`;
  };

  const firstJobs = () => reprintChain(store);

  /** Describes label `n` of a job (its row, counters and values); each job's template is parsed once per describer. */
  const describer = () => {
    const templates = new Map<number, Template | undefined>();
    const templateOf = (source: Job): Template | undefined => {
      if (!templates.has(source.id)) {
        templates.set(
          source.id,
          source.render ? parseTemplate(source.template, `job ${source.id}`) : undefined,
        );
      }
      return templates.get(source.id);
    };
    const describe = (source: Job, n: number) => {
      const template = templateOf(source);
      const rowIndex = Math.floor((n - 1) / source.copies);
      const row = source.rows.length ? (source.render?.sourceRows?.[rowIndex] ?? rowIndex + 1) : null;
      const values: Record<string, string> = {};
      if (template && source.render) {
        const numbers = jobLabelCounters(template, source, n);
        for (const field of counterFields(template)) {
          const v = numbers[field.name];
          if (v !== undefined) values[field.name] = formatCounter(counterSettings(field), v);
        }
      }
      const typed: Record<string, string> = { ...(source.rows[rowIndex] ?? {}), ...values };
      const shown = (template?.fields ?? []).flatMap((f) => {
        const value = typed[f.name];
        return value ? [{ field: f.name, label: f.label, value }] : [];
      });
      return { row, counters: values, values: shown };
    };
    return describe;
  };

  const labels = (jobId: number): JobLabel[] => {
    const job = mustJob(jobId);
    const describe = describer();
    const firstJobOf = firstJobs();
    return store.labels(jobId).map((label) => {
      const original = job.reprintOf ? (job.reprintOf.labels[label.number - 1] ?? null) : null;
      const first = firstJobOf(jobId, label.number);
      return { ...label, ...describe(first.job, first.n), reprintOf: original };
    });
  };

  const summaries = new Map<number, { label: string; value: string }[]>();
  /** A label's stored bytes, or nothing while it is not rendered. */
  const payloadOf = (jobId: number, n: number): string => {
    try {
      return store.payload(jobId, n);
    } catch (e) {
      if (e instanceof JobNotFound) return '';
      throw e;
    }
  };

  const summary = (jobId: number): { label: string; value: string }[] => {
    const kept = summaries.get(jobId);
    if (kept) return kept;
    let values: { label: string; value: string }[] = [];
    if (mustJob(jobId).labelCount > 0) {
      const first = firstJobs()(jobId, 1);
      // A ZPL file made elsewhere has no template fields: its first label's field texts say what is on it.
      values = first.job.zplFile
        ? zplFieldTexts(payloadOf(first.job.id, first.n), SUMMARY_VALUES).map((value) => ({
            label: 'Text',
            value,
          }))
        : describer()(first.job, first.n)
            .values.slice(0, SUMMARY_VALUES)
            .map(({ label, value }) => ({ label, value }));
    }
    if (summaries.size >= SUMMARY_CACHE) summaries.delete(summaries.keys().next().value!);
    summaries.set(jobId, values);
    return values;
  };

  return { mustJob, detail, withCounts, describeLabel, firstJobs, labels, summary };
}
