/**
 * Creating jobs for the job service (job-service.ts): a new job from a template and rows (its counter numbers
 * reserved in the same transaction, sqlite-counters.ts), and a reprint of a job's labels (the same bytes on its
 * printer, or drawn again for another). Each is checked first (job-preflight.ts), recorded in the audit log,
 * told to listeners, has label 1 rendered, and then prints in the background unless asked not to.
 */
import { formatLabelList, type JobSpec } from '../../jobs/model';
import { formatPrinterUri, parsePrinterUri } from '../../printers/uri';
import { defaultPrintWidthDots } from '../../printers/profiles';
import {
  counterFields,
  counterKey,
  counterNumbersNeeded,
  counterRangeProblem,
  counterSettings,
} from '../../resolve/counters';
import { toByteString } from '../../zpl/read/parse';
import type { JobEvents } from './job-events';
import {
  checkedRows,
  checkMarkupCount,
  checkRedrawable,
  reprintNumbers,
  type JobPreflight,
} from './job-preflight';
import type { JobScheduler } from './job-scheduler';
import { JobRequestError, LabelDoesNotFit, type JobService } from './job-service-types';
import { checkMarkupsFit, fitProblem, oversizeFor } from '../../outputs/fit';
import type { JobViews } from './job-views';
import type { SqliteCounters } from './sqlite-counters';
import type { SqliteJobStore } from './sqlite-job-store';

export interface JobCreationDeps {
  store: SqliteJobStore;
  counters: SqliteCounters;
  views: Pick<JobViews, 'mustJob' | 'detail' | 'firstJobs'>;
  events: Pick<JobEvents, 'record' | 'emit'>;
  preflight: JobPreflight;
  scheduler: Pick<JobScheduler, 'start'>;
  /** Who creates jobs when a request does not say. */
  user: string;
}

export type JobCreation = Pick<JobService, 'addJob' | 'addZplJob' | 'reprint'>;

export function createJobCreation(deps: JobCreationDeps): JobCreation {
  const { store, counters, preflight, user: serviceUser } = deps;
  const { mustJob, detail, firstJobs } = deps.views;
  const { record, emit } = deps.events;
  const { setupFor, renderFirstOrFail } = preflight;
  const { start } = deps.scheduler;

  const addJob: JobService['addJob'] = async (request) => {
    const printer = formatPrinterUri(parsePrinterUri(request.printer));
    const template = request.template;
    const rows = checkedRows(request);
    const setup = await setupFor(printer, request.dpi);
    // A label wider than the head is never cut without a word: refused unless the request says what to do.
    const check = checkMarkupsFit(request.markups?.length ? request.markups : [template], {
      dpi: setup.dpi,
      widthDots: setup.zpl.maxWidthDots ?? defaultPrintWidthDots(setup.dpi),
      ...(setup.lengthDots !== undefined ? { lengthDots: setup.lengthDots } : {}),
    });
    const oversize = oversizeFor(check, request.oversize);
    if (!check.fits && !oversize) throw new LabelDoesNotFit(fitProblem(template.name, check), check);
    // Equal copies: rows stored once with `copies`; else each row repeated, one label each.
    const uniform = rows.every((r) => r.copies === rows[0]?.copies);
    const copies = uniform ? (rows[0]?.copies ?? 1) : 1;
    // `unit`: the request row a stored row comes from (an SSCC is one per request row, shared by its copies).
    const stored = uniform
      ? rows.map((r, unit) => ({ ...r, unit }))
      : rows.flatMap((r, unit) => Array.from({ length: r.copies }, () => ({ ...r, unit })));
    const labelCount = stored.length * copies;
    checkMarkupCount(request, labelCount);
    const user = request.user ?? serviceUser;
    const created = store.createDeferredJob(labelCount, (): JobSpec => {
      const counterFirsts: Record<string, number> = {};
      for (const field of request.markups ? [] : counterFields(template)) {
        const c = counterSettings(field);
        const needed = counterNumbersNeeded(field, rows.length, labelCount);
        const first = counters.reserve(counterKey(field, template.name, printer), needed, c.start, c.step);
        // Thrown inside the creating transaction: the reservation is rolled back with the job.
        const problem = counterRangeProblem(field, first, first + (needed - 1) * c.step);
        if (problem) throw new JobRequestError(problem);
        counterFirsts[field.name] = first;
      }
      const sourceRows = stored.map((r) => r.row ?? r.unit + 1);
      return {
        printer,
        format: 'zpl',
        templateName: template.name,
        template,
        rows: stored.map((r) => r.data),
        copies,
        dpi: setup.dpi,
        createdBy: user,
        render: {
          ...(request.baseDir !== undefined ? { baseDir: request.baseDir } : {}),
          zpl: {
            ...setup.zpl,
            ...(setup.lengthDots !== undefined ? { labelLengthDots: setup.lengthDots } : {}),
            ...(oversize ? { oversize } : {}),
          },
          counterFirsts,
          ...(uniform ? {} : { counterUnits: stored.map((r) => r.unit) }),
          sourceRows,
          ...(request.markups ? { markups: [...request.markups] } : {}),
        },
      };
    });
    const skipped = request.skippedRows?.length
      ? `skipped invalid records: ${request.skippedRows.join(', ')}`
      : null;
    const summary = detail(created.id);
    record('created', summary, labelCount, skipped);
    emit({ kind: 'created', jobId: created.id, printer, labelCount });
    await renderFirstOrFail(created.id);
    if (request.start !== false) void start(printer);
    return { job: detail(created.id), warnings: setup.warnings };
  };

  const reprint: JobService['reprint'] = async (jobId, labels, reprintOptions = {}) => {
    const original = mustJob(jobId);
    const numbers = reprintNumbers(jobId, original, labels);
    const target = reprintOptions.printer
      ? formatPrinterUri(parsePrinterUri(reprintOptions.printer))
      : original.printer;
    // Another printer: the labels are drawn again for it, so each must come from a job that resolved them.
    // A ZPL file's labels are never drawn: any printer is sent the same bytes.
    let redraw: { dpi: number; render: JobSpec['render'] } | undefined;
    if (target !== original.printer && !original.zplFile) {
      checkRedrawable(firstJobs(), jobId, numbers);
      const setup = await setupFor(target, reprintOptions.dpi);
      for (const warning of setup.warnings) reprintOptions.warn?.(warning);
      redraw = { dpi: setup.dpi, render: { zpl: setup.zpl, counterFirsts: {} } };
    }
    const created = store.createDeferredJob(numbers.length, () => ({
      printer: target,
      format: original.format,
      templateName: original.templateName,
      template: original.template,
      rows: [],
      copies: 1,
      dpi: redraw?.dpi ?? original.dpi,
      createdBy: serviceUser,
      ...(redraw ? { render: redraw.render } : {}),
      ...(original.zplFile
        ? {
            zplFile: {
              name: original.zplFile.name,
              copies: numbers.map((n) => original.zplFile?.copies[n - 1] ?? 1),
            },
          }
        : {}),
      reprintOf: { jobId, labels: numbers },
    }));
    const where = redraw ? `, on ${target}` : '';
    const text = `reprint of job ${jobId}, label${numbers.length === 1 ? '' : 's'} ${formatLabelList(numbers)}${where}`;
    record('reprinted', detail(created.id), numbers.length, text);
    emit({ kind: 'created', jobId: created.id, printer: target, labelCount: numbers.length });
    await renderFirstOrFail(created.id);
    if (reprintOptions.start !== false) void start(target);
    return detail(created.id);
  };

  const addZplJob: JobService['addZplJob'] = async (request) => {
    const printer = formatPrinterUri(parsePrinterUri(request.printer));
    if (!request.labels.length) throw new JobRequestError(`${request.name}: no label (^XA…^XZ) in it`);
    const setup = await setupFor(printer, request.dpi);
    const user = request.user ?? serviceUser;
    const created = store.createJob(
      {
        printer,
        format: 'zpl',
        templateName: request.name,
        template: null,
        rows: [],
        copies: 1,
        dpi: setup.dpi,
        createdBy: user,
        zplFile: { name: request.name, copies: request.labels.map((l) => l.copies) },
      },
      // One char per byte: the store keeps text, the worker sends the bytes (src/jobs/model.ts payloadBytes).
      () => request.labels.map((l) => toByteString(l.bytes, Number.POSITIVE_INFINITY)),
    );
    const summary = detail(created.id);
    record('created', summary, request.labels.length, `ZPL file ${request.name}`);
    emit({ kind: 'created', jobId: created.id, printer, labelCount: request.labels.length });
    if (request.start !== false) void start(printer);
    return { job: detail(created.id), warnings: setup.warnings };
  };

  return { addJob, addZplJob, reprint };
}
