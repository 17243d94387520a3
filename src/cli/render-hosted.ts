/**
 * `labeldesk render` through the hosted API (with the offline fallback of src/backends/fallback.ts): zpl → 06,
 * pdf → 07, svg → 05 and the files downloaded while valid, png → markup from 01 drawn by the local engine
 * (the service has no PNG route).
 */
import { downloadSvgFiles } from '../backends/svg-download';
import type { LabelBackend } from '../backends/backend';
import { renderPngLabels } from '../outputs/render';
import { cliFonts } from './cli-fonts';
import { nodeRenderPorts } from '../node/render-ports';
import { checkApiData } from '../resolve/resolve';
import { hostedTemplateName } from './hosted-options';
import { CliError, UsageError, readJsonArg, type CliIo } from './io';
import { parseAmount } from './template-commands';

interface HostedRenderValues {
  template?: string | undefined;
  data?: string | undefined;
  amount?: string | undefined;
  compression?: string | undefined;
  out?: string | undefined;
  'single-file'?: boolean | undefined;
}

/** The outputs, one per copy (or one for --single-file zpl), and a file-safe name for them. */
export async function renderHosted(
  values: HostedRenderValues,
  format: 'zpl' | 'pdf' | 'svg' | 'png',
  sizes: { dpi: number | undefined; maxWidthDots: number | undefined },
  backend: LabelBackend,
  io: CliIo,
): Promise<{ name: string; outputs: (string | Uint8Array)[] }> {
  if (values.compression !== undefined)
    throw new UsageError(
      '--compression applies to the local engine only (the service chooses its ZPL encoding)',
    );
  if (format === 'pdf' && values['single-file']) {
    throw new UsageError('--single-file pdf needs the local engine: the hosted API returns one PDF per copy');
  }
  const request = {
    label_name: hostedTemplateName(values.template),
    amount: parseAmount(values.amount),
    apiData: checkApiData(values.data === undefined ? {} : await readJsonArg('--data', values.data, io)),
  };
  if (!values.out && request.amount > 1 && !values['single-file']) {
    throw new UsageError(`${request.amount} copies need --out DIR (one file per copy), or --single-file`);
  }
  const name = request.label_name.replace(/[/\\]/g, '-');
  switch (format) {
    case 'zpl': {
      const result = await backend.renderZpl({
        ...request,
        ...(sizes.dpi !== undefined ? { dpi: sizes.dpi } : {}),
        ...(sizes.maxWidthDots !== undefined ? { max_width_dots: sizes.maxWidthDots } : {}),
      });
      return { name, outputs: values['single-file'] ? [result.labels.join('')] : result.labels };
    }
    case 'pdf': {
      const result = await backend.renderPdf(request);
      return { name, outputs: result.labels.map((b64) => new Uint8Array(Buffer.from(b64, 'base64'))) };
    }
    case 'svg': {
      const result = await backend.exportSvg(request);
      const files = await downloadSvgFiles(result, globalThis.fetch);
      return { name, outputs: files.map((f) => f.svg) };
    }
    case 'png': {
      const markups = await backend.fetchMarkups(request);
      try {
        return {
          name,
          outputs: await renderPngLabels(
            markups,
            sizes.dpi ?? 203,
            nodeRenderPorts({ baseDir: io.cwd }, cliFonts({}, io)),
          ),
        };
      } catch (e) {
        // Out-of-range dpi; the engine's own user errors go to reportError.
        if (e instanceof RangeError) throw new CliError(e.message);
        throw e;
      }
    }
  }
}
