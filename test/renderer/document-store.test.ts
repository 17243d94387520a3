import { describe, expect, it } from 'vitest';
import { IpcError } from '../../src/ipc/errors';
import type { ExportedFile, PreviewResult } from '../../src/ipc/contract';
import { createStores, startApp, type BrowserPorts } from '../../renderer/src/store';
import { initialValues, parseCopies, valuesToSend } from '../../renderer/src/store/document';
import { DETAIL, JOB, SUMMARY, TEMPLATE, createFakeApi, deferred, flush, sceneSaying } from './fake-api';

function setup(previewEngine?: BrowserPorts['previewEngine']) {
  const api = createFakeApi();
  const saved: ExportedFile[] = [];
  const printed: { svg: string; page: { width: string; height: string } }[] = [];
  const stores = createStores(api, {
    saveFile: (f) => saved.push(f),
    printSvg: (svg, page) => printed.push({ svg, page }),
    ...(previewEngine ? { previewEngine } : {}),
  });
  return {
    api,
    stores,
    saved,
    printed,
    doc: () => stores.document.getState(),
    ui: () => stores.ui.getState(),
  };
}

const firstLine = (r: { scene: ReturnType<typeof sceneSaying> | null }) => {
  const node = r.scene?.nodes[0];
  return node?.kind === 'text' ? node.lines[0]?.text : undefined;
};

const firstLineOf = (node: unknown) =>
  (node as { kind?: string; lines?: { text: string }[] } | undefined)?.kind === 'text'
    ? (node as { lines: { text: string }[] }).lines[0]?.text
    : undefined;

describe('document store: template selection', () => {
  it('loads the detail, starts the form from defaults (no counters) and asks for a preview', async () => {
    const { api, doc } = setup();
    await doc().selectTemplate(SUMMARY.ref);
    expect(api.callsTo('templates.get')).toEqual([{ ref: SUMMARY.ref }]);
    expect(doc().detail).toEqual(DETAIL);
    expect(doc().values).toEqual({ ship_to_name: '', address: '', service: 'STANDARD' });
    // Empty values are left out so the template's placeholders print.
    expect(api.callsTo('preview.scene')).toEqual([{ ref: SUMMARY.ref, values: { service: 'STANDARD' } }]);
    expect(firstLine(doc())).toBe('NAME');
  });

  it('shows a failed load as the IpcError sentence', async () => {
    const { api, doc } = setup();
    api.on('templates.get', () => {
      throw new IpcError('not-found', 'There is no template called "nope".');
    });
    await doc().selectTemplate({ source: 'user', name: 'nope' });
    expect(doc().loading).toBe(false);
    expect(doc().loadError).toMatchObject({
      code: 'not-found',
      message: 'There is no template called "nope".',
    });
  });

  it('startApp selects the default printer and the most recent template', async () => {
    const { stores, doc } = setup();
    await startApp(stores);
    await flush();
    expect(doc().printer).toBe('p1');
    expect(doc().ref).toEqual(SUMMARY.ref);
    expect(stores.batch.getState().printer).toBe('p1');
  });
});

describe('document store: live preview', () => {
  it('coalesces changes made in one task into one request', async () => {
    const { api, doc } = setup();
    await doc().selectTemplate(SUMMARY.ref);
    doc().setValue('ship_to_name', 'A');
    doc().setValue('ship_to_name', 'Ad');
    doc().setValue('ship_to_name', 'Ada');
    await doc().refreshPreview();
    const requests = api.callsTo('preview.scene');
    expect(requests).toHaveLength(2);
    expect(requests[1]!.values.ship_to_name).toBe('Ada');
    expect(firstLine(doc())).toBe('Ada');
  });

  it('keeps the latest answer when an older one arrives after it', async () => {
    const { api, doc } = setup();
    await doc().selectTemplate(SUMMARY.ref);
    const slow = deferred<PreviewResult>();
    const fast = deferred<PreviewResult>();
    const pending = [slow, fast];
    api.on('preview.scene', () => pending.shift()!.promise);

    doc().setValue('ship_to_name', 'Old');
    await flush();
    doc().setValue('ship_to_name', 'New');
    await flush();
    fast.resolve({ scene: sceneSaying('New'), problems: [], cuts: [] });
    await flush();
    slow.resolve({
      scene: sceneSaying('Old'),
      problems: [{ field: 'ship_to_name', message: 'stale' }],
      cuts: [],
    });
    await flush();

    expect(firstLine(doc())).toBe('New');
    expect(doc().problems).toEqual([]);
  });

  it('drops a preview of the previous template', async () => {
    const { api, doc } = setup();
    await doc().selectTemplate(SUMMARY.ref);
    const late = deferred<PreviewResult>();
    api.on('preview.scene', () => late.promise);
    doc().setValue('ship_to_name', 'Late');
    await flush();
    const other = { source: 'user' as const, name: 'other' };
    api.on('templates.get', () => ({ ...DETAIL, ref: other }));
    api.on('preview.scene', () => ({ scene: sceneSaying('Other'), problems: [], cuts: [] }));
    await doc().selectTemplate(other);
    late.resolve({ scene: sceneSaying('Late'), problems: [], cuts: [] });
    await flush();
    expect(firstLine(doc())).toBe('Other');
  });
});

describe('document store: the preview builds on the scene it holds (#21)', () => {
  /** A scene of two nodes: a static frame, and the typed name. */
  const twoNodes = (name: string) => {
    const named = sceneSaying(name);
    const frame = {
      kind: 'rect' as const,
      x: 0,
      y: 0,
      width: 384,
      height: 576,
      stroke: { color: '#000000', width: 2 },
    };
    return { ...named, nodes: [frame, ...named.nodes] };
  };

  it('asks since the scene it holds, and keeps the very node objects main says are the same', async () => {
    const { api, doc } = setup();
    let n = 0;
    api.on('preview.scene', (r) => {
      n++;
      const full = twoNodes(r.values.ship_to_name ?? 'NAME');
      if (!r.since) return { scene: { ...full, id: `s${n}` }, problems: [], cuts: [] };
      return {
        scene: { ...full, id: `s${n}`, base: r.since, nodes: [{ kind: 'same' as const }, full.nodes[1]!] },
        problems: [],
        cuts: [],
      };
    });
    await doc().selectTemplate(SUMMARY.ref);
    const frame = doc().scene!.nodes[0];
    doc().setValue('ship_to_name', 'Ada');
    await flush();
    expect(api.callsTo('preview.scene').at(-1)).toMatchObject({ since: 's1' });
    expect(doc().scene!.nodes[0]).toBe(frame);
    expect(firstLineOf(doc().scene!.nodes[1])).toBe('Ada');
    doc().setValue('ship_to_name', 'Ada L');
    await flush();
    expect(api.callsTo('preview.scene').at(-1)).toMatchObject({ since: 's2' });
    expect(doc().scene!.nodes[0]).toBe(frame);
    expect(firstLineOf(doc().scene!.nodes[1])).toBe('Ada L');
  });

  it('an answer that builds on a scene it does not hold: asks again for the whole scene, shows no error', async () => {
    const { api, doc } = setup();
    const asked: (string | undefined)[] = [];
    api.on('preview.scene', (r) => {
      asked.push(r.since);
      const full = twoNodes(r.values.ship_to_name ?? 'NAME');
      // A confused main: every answer claims a base nobody has.
      return r.since === undefined && asked.length > 1
        ? { scene: { ...full, id: 'whole' }, problems: [], cuts: [] }
        : {
            scene: { ...full, id: 'x', base: 'gone', nodes: [{ kind: 'same' as const }, full.nodes[1]!] },
            problems: [],
            cuts: [],
          };
    });
    await doc().selectTemplate(SUMMARY.ref);
    await flush();
    expect(asked).toEqual([undefined, undefined]);
    expect(doc().previewError).toBeNull();
    expect(firstLineOf(doc().scene!.nodes[1])).toBe('NAME');
  });
});

describe('document store: the printer view asks with the scene, not after it (#21)', () => {
  it('a value typed with the printer view on asks for the dots while the scene is still on its way', async () => {
    const { api, doc, ui } = setup();
    await doc().selectTemplate(SUMMARY.ref);
    ui().setPrinterView(true);
    const never = deferred<PreviewResult>();
    api.on('preview.scene', () => never.promise);
    const rastersBefore = api.callsTo('preview.raster').length;
    doc().setValue('ship_to_name', 'Ada');
    await flush();
    expect(api.callsTo('preview.raster').length).toBe(rastersBefore + 1);
    expect(api.callsTo('preview.raster').at(-1)).toMatchObject({ values: { ship_to_name: 'Ada' } });
  });

  it('with the printer view off, typing asks for no dots', async () => {
    const { api, doc } = setup();
    await doc().selectTemplate(SUMMARY.ref);
    doc().setValue('ship_to_name', 'Ada');
    await flush();
    expect(api.callsTo('preview.raster')).toEqual([]);
  });
});

describe('document store: the preview made in the renderer (#21)', () => {
  it('a keystroke asks the worker, not main; the worker is given the template and the values as sent', async () => {
    const asked: { values: Record<string, string>; since?: string }[] = [];
    const { api, doc } = setup({
      preview: async (ask) => {
        asked.push({ values: ask.values, ...(ask.since ? { since: ask.since } : {}) });
        expect(ask.template).toEqual(TEMPLATE);
        return {
          scene: { ...sceneSaying(ask.values.ship_to_name ?? 'NAME'), id: `w${asked.length}` },
          problems: [],
          cuts: [],
        };
      },
    });
    await doc().selectTemplate(SUMMARY.ref);
    doc().setValue('ship_to_name', 'Ada');
    await flush();
    expect(api.callsTo('preview.scene')).toEqual([]);
    expect(asked.at(-1)).toEqual({ values: { ship_to_name: 'Ada', service: 'STANDARD' }, since: 'w1' });
    expect(firstLine(doc())).toBe('Ada');
  });

  it('when the worker cannot (an image by URL, fonts not loaded), main is asked, and its answer shown', async () => {
    const { api, doc } = setup({ preview: async () => null });
    await doc().selectTemplate(SUMMARY.ref);
    doc().setValue('ship_to_name', 'Ada');
    await flush();
    expect(api.callsTo('preview.scene').at(-1)).toMatchObject({ values: { ship_to_name: 'Ada' } });
    expect(firstLine(doc())).toBe('Ada');
  });

  it('a slow worker answer for an older value is dropped, as an answer of main is', async () => {
    const slow = deferred<PreviewResult | null>();
    let n = 0;
    const { doc } = setup({
      preview: (ask) =>
        ++n === 2
          ? slow.promise
          : Promise.resolve({
              scene: sceneSaying(ask.values.ship_to_name ?? 'NAME'),
              problems: [],
              cuts: [],
            }),
    });
    await doc().selectTemplate(SUMMARY.ref);
    doc().setValue('ship_to_name', 'Old');
    await flush();
    doc().setValue('ship_to_name', 'New');
    await flush();
    slow.resolve({ scene: sceneSaying('Old'), problems: [], cuts: [] });
    await flush();
    expect(firstLine(doc())).toBe('New');
  });
});

describe('document store: output', () => {
  it('print submits the label with copies and printer, tracks the job and shows a toast', async () => {
    const { api, stores, doc, ui } = setup();
    await doc().selectTemplate(SUMMARY.ref);
    doc().setValue('ship_to_name', 'Ada');
    doc().setCopies(3);
    doc().setPrinter('p1');
    const sent = await doc().print();
    expect(sent?.job?.id).toBe(JOB.id);
    expect(api.callsTo('print.submit')).toEqual([
      { ref: SUMMARY.ref, values: { ship_to_name: 'Ada', service: 'STANDARD' }, copies: 3, printer: 'p1' },
    ]);
    expect(stores.jobs.getState().live[JOB.id]?.job).toEqual(JOB);
    expect(ui().toasts).toEqual([expect.objectContaining({ kind: 'job', jobId: JOB.id })]);
  });

  it('a label wider than the printer waits for a choice: cancel sends nothing, a choice sends it (#42 item 1)', async () => {
    const { api, doc } = setup();
    const fit = {
      fits: false,
      problem: 'wide is 210 mm (1678 dots) wide but the printer prints 104 mm (832 dots) at 203 dpi',
      cut: 'the right 106 mm (846 dots)',
      rotates: false,
      fitPercent: 49,
    };
    api.on('print.fit', () => fit);
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    expect(await doc().print()).toBeNull();
    expect(doc().confirmingOversize).toEqual({ fit });
    expect(api.callsTo('print.submit')).toEqual([]);
    doc().cancelOversizeConfirm();
    expect(doc().confirmingOversize).toBeNull();
    expect(api.callsTo('print.submit')).toEqual([]);

    await doc().print();
    expect((await doc().print({ oversize: 'fit' }))?.job?.id).toBe(JOB.id);
    expect(api.callsTo('print.submit')).toEqual([
      expect.objectContaining({ printer: 'p1', oversize: 'fit' }),
    ]);
    expect(doc().confirmingOversize).toBeNull();
  });

  it('an OS queue answer (no job) is shown as an info toast, with nothing to track', async () => {
    const { api, stores, doc, ui } = setup();
    api.on('print.submit', () => ({ job: null, message: 'Sent one PDF to the Office queue.' }));
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    expect(await doc().print()).toEqual({ job: null, message: 'Sent one PDF to the Office queue.' });
    expect(stores.jobs.getState().live).toEqual({});
    expect(ui().toasts).toEqual([
      expect.objectContaining({ kind: 'info', message: 'Sent one PDF to the Office queue.' }),
    ]);
    expect(doc().busy).toBeNull();
  });

  it('sends once when print is asked twice before the preview settles (a double Enter)', async () => {
    const { api, doc } = setup();
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    doc().setValue('ship_to_name', 'Ada');
    const [first, second] = await Promise.all([doc().print(), doc().print()]);
    expect(first?.job?.id).toBe(JOB.id);
    expect(second).toBeNull();
    expect(api.callsTo('print.submit')).toHaveLength(1);
  });

  it('refuses a print while the previous one is being sent, and says so', async () => {
    const { api, doc, ui } = setup();
    const answer = deferred<{ job: typeof JOB; message: string }>();
    api.on('print.submit', () => answer.promise);
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    const first = doc().print();
    await flush();
    expect(doc().busy).toBe('print');
    expect(await doc().print()).toBeNull();
    expect(ui().toasts).toEqual([
      expect.objectContaining({ kind: 'info', message: 'Still sending the previous label.' }),
    ]);
    answer.resolve({ job: JOB, message: 'Sent.' });
    expect((await first)?.job?.id).toBe(JOB.id);
    expect(api.callsTo('print.submit')).toHaveLength(1);
    expect(doc().busy).toBeNull();
  });

  it('sends nothing before the template detail is loaded (no placeholders printed)', async () => {
    const { api, doc } = setup();
    const detail = deferred<typeof DETAIL>();
    api.on('templates.get', () => detail.promise);
    const loading = doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    expect(await doc().print()).toBeNull();
    expect(await doc().exportAs('zpl')).toBeNull();
    expect(api.callsTo('print.submit')).toEqual([]);
    expect(api.callsTo('output.export')).toEqual([]);
    detail.resolve(DETAIL);
    await loading;
    expect((await doc().print())?.job?.id).toBe(JOB.id);
  });

  it('clears busy when a print is blocked by problems, so the next one is not refused', async () => {
    const { api, doc } = setup();
    api.on('preview.scene', (r) => ({
      scene: sceneSaying('x'),
      problems: r.values.ship_to_name ? [] : [{ field: 'ship_to_name', message: 'Recipient is required.' }],
      cuts: [],
    }));
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    expect(await doc().print()).toBeNull();
    expect(doc().busy).toBeNull();
    doc().setValue('ship_to_name', 'Ada');
    expect((await doc().print())?.job?.id).toBe(JOB.id);
  });

  it('a keyboard print puts the cursor back on the first field with its text selected (scanner flow)', async () => {
    const { doc, ui } = setup();
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    doc().setValue('ship_to_name', 'Ada');
    await doc().print({ refocus: true });
    expect(ui().focusRequest).toMatchObject({ field: 'ship_to_name', select: true });
  });

  it('does not print while main reports field problems: shows them and focuses the first', async () => {
    const { api, doc, ui } = setup();
    api.on('preview.scene', () => ({
      scene: sceneSaying('x'),
      problems: [{ field: 'ship_to_name', message: 'Recipient is required.' }],
      cuts: [],
    }));
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    expect(await doc().print()).toBeNull();
    expect(api.callsTo('print.submit')).toEqual([]);
    expect(ui().revealAllProblems).toBe(true);
    expect(ui().focusRequest?.field).toBe('ship_to_name');
  });

  it('a label whose text would be cut off prints only after a yes; no, or a changed value, prints nothing (#17 item 6)', async () => {
    const { api, doc, ui } = setup();
    const cut = {
      field: 'address',
      message: 'Address: “United Kingdom” does not fit on the label and would be cut off.',
    };
    api.on('preview.scene', (r) => ({
      scene: sceneSaying(r.values.ship_to_name ?? 'NAME'),
      problems: [],
      cuts: (r.values.address ?? '').length > 20 ? [cut] : [],
    }));
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    doc().setValue('ship_to_name', 'Ada');
    doc().setValue('address', '1 Long Road\nSomewhere\nUnited Kingdom');
    await doc().refreshPreview();
    expect(doc().cuts).toEqual([cut]);

    // Asked, not printed; "Shorten the text" puts the cursor on the field with its text selected.
    expect(await doc().print()).toBeNull();
    expect(doc().confirmingCuts).toEqual({ action: 'print', cuts: [cut] });
    expect(api.callsTo('print.submit')).toEqual([]);
    doc().cancelCutsConfirm();
    expect(doc().confirmingCuts).toBeNull();
    expect(ui().focusRequest).toMatchObject({ field: 'address', select: true });

    // A yes given to one label is not a yes to the next: typing drops the question.
    await doc().print();
    expect(doc().confirmingCuts).not.toBeNull();
    doc().setValue('ship_to_name', 'Bob');
    expect(doc().confirmingCuts).toBeNull();

    // Yes: printed as it is, once.
    await doc().print();
    const sent = await doc().print({ confirmedCuts: true });
    expect(sent?.job?.id).toBe(JOB.id);
    expect(api.callsTo('print.submit')).toHaveLength(1);
    expect(doc().confirmingCuts).toBeNull();

    // Fitting text prints without a question.
    doc().setValue('address', '1 Road');
    expect((await doc().print())?.job?.id).toBe(JOB.id);
    expect(api.callsTo('print.submit')).toHaveLength(2);
  });

  it('typing on after Print was clicked: the cut question is asked for the values that print (review finding)', async () => {
    const { api, doc } = setup();
    const cut = {
      field: 'address',
      message: 'Address: “United Kingdom” does not fit on the label and would be cut off.',
    };
    const held: ReturnType<typeof deferred<void>>[] = [];
    let hold = false;
    api.on('preview.scene', async (r) => {
      if (hold) {
        const gate = deferred<void>();
        held.push(gate);
        await gate.promise;
      }
      return {
        scene: sceneSaying('x'),
        problems: [],
        cuts: (r.values.address ?? '').length > 20 ? [cut] : [],
      };
    });
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    doc().setValue('address', '1 Road');
    await doc().refreshPreview();
    hold = true;
    doc().setValue('address', '1 Road, Town'); // fits; its preview is slow
    const printing = doc().print();
    await flush();
    doc().setValue('address', '1 Long Road\nSomewhere\nUnited Kingdom'); // cut; typed while Print waits
    await flush();
    hold = false;
    held[0]!.resolve(); // the answer Print waited for arrives: stale, dropped; the newer one is still out
    await flush();
    await flush();
    expect(api.callsTo('print.submit')).toEqual([]); // not printed on the strength of the stale answer
    held[1]!.resolve();
    expect(await printing).toBeNull();
    expect(api.callsTo('print.submit')).toEqual([]);
    expect(doc().confirmingCuts).toMatchObject({ action: 'print', cuts: [cut] });
  });

  it('copies changed while Print waited: the yes to 60 copies is not a yes to 500 (review finding)', async () => {
    const { api, doc } = setup();
    const cut = { field: 'address', message: 'Address: “X” does not fit on the label and would be cut off.' };
    let gate: ReturnType<typeof deferred<void>> | null = null;
    api.on('preview.scene', async () => {
      if (gate) await gate.promise;
      return { scene: sceneSaying('x'), problems: [], cuts: [cut] };
    });
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    doc().setCopies('60');
    expect(await doc().print()).toBeNull();
    expect(doc().confirmingCopies).toBe(60);
    gate = deferred<void>();
    doc().setValue('address', 'a long address that is cut');
    const printing = doc().print({ confirmedCopies: 60 }); // 'Print 60 copies'
    await flush();
    doc().setCopies('500'); // typed while the preview settles
    gate.resolve();
    await printing;
    const asked = doc().confirmingCuts;
    expect(asked).toMatchObject({ confirmedCopies: 60 });
    // 'Print it cut' passes on what was said yes to: 60 copies, not the 500 now in the box.
    await doc().print({ confirmedCuts: true, confirmedCopies: asked!.confirmedCopies! });
    expect(api.callsTo('print.submit')).toEqual([]);
    expect(doc().confirmingCopies).toBe(500);
    await doc().print({ confirmedCuts: true, confirmedCopies: 500 });
    expect(api.callsTo('print.submit').map((c) => c.copies)).toEqual([500]);
  });

  it('a keyboard print that asks about a cut keeps the scanner flow: after the yes the cursor is on the first field', async () => {
    const { api, doc, ui } = setup();
    const cut = { field: 'address', message: 'Address: “X” does not fit on the label and would be cut off.' };
    api.on('preview.scene', () => ({ scene: sceneSaying('x'), problems: [], cuts: [cut] }));
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    await doc().print({ refocus: true });
    expect(doc().confirmingCuts).toMatchObject({ refocus: true });
    await doc().print({ confirmedCuts: true, refocus: doc().confirmingCuts?.refocus ?? false });
    expect(api.callsTo('print.submit')).toHaveLength(1);
    expect(ui().focusRequest).toMatchObject({ field: 'ship_to_name', select: true });
  });

  it('the system print dialog asks too before a cut label', async () => {
    const { api, doc, printed } = setup();
    const cut = { field: 'address', message: 'Address: “X” does not fit on the label and would be cut off.' };
    api.on('preview.scene', () => ({ scene: sceneSaying('x'), problems: [], cuts: [cut] }));
    const base64 = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>', 'utf8').toString('base64');
    api.on('output.export', () => ({ fileName: 'l.svg', mime: 'image/svg+xml', base64 }));
    await doc().selectTemplate(SUMMARY.ref);
    await doc().systemPrint();
    expect(doc().confirmingCuts).toEqual({ action: 'system-print', cuts: [cut] });
    expect(printed).toEqual([]);
    await doc().systemPrint({ confirmedCuts: true });
    expect(printed).toHaveLength(1);
  });

  it('asks for a printer before printing, with the cursor on the printer box', async () => {
    const { api, doc, ui } = setup();
    await doc().selectTemplate(SUMMARY.ref);
    expect(await doc().print()).toBeNull();
    expect(api.callsTo('print.submit')).toEqual([]);
    expect(ui().toasts[0]).toMatchObject({
      kind: 'error',
      error: { message: 'Choose a printer to print to.', action: 'choose-printer' },
    });
    expect(ui().controlFocus?.target).toBe('printer');
  });

  it('turns a failure into the error sentence with its action, and the action leads there', async () => {
    const { api, doc, ui } = setup();
    api.on('print.submit', () => {
      throw new IpcError('printer', 'The printer Desk Zebra is out of paper: load labels.', null, 'printers');
    });
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    expect(await doc().print()).toBeNull();
    const toast = ui().toasts[0];
    expect(toast).toMatchObject({
      kind: 'error',
      error: {
        code: 'printer',
        message: 'The printer Desk Zebra is out of paper: load labels.',
        action: 'printers',
      },
    });
    if (toast?.kind === 'error') ui().followAction(toast.error);
    expect(ui().screen).toBe('settings');
    expect(ui().settingsSection).toBe('printers');
  });

  it('a field error focuses the field', async () => {
    const { api, doc, ui } = setup();
    api.on('print.submit', () => {
      throw new IpcError('invalid', 'Recipient is too long.', 'ship_to_name', 'field');
    });
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    await doc().print();
    expect(ui().focusRequest?.field).toBe('ship_to_name');
  });

  it('exports hand the file to the browser port', async () => {
    const { api, doc, saved } = setup();
    const file = { fileName: 'label.pdf', mime: 'application/pdf', base64: 'JVBERg==' };
    api.on('output.export', () => file);
    await doc().selectTemplate(SUMMARY.ref);
    doc().setPrinter('p1');
    await doc().exportAs('pdf');
    expect(api.callsTo('output.export')[0]).toMatchObject({ format: 'pdf', copies: 1, printer: 'p1' });
    expect(saved).toEqual([file]);
  });

  it('the system print dialog gets the SVG text and the stage size as the page size', async () => {
    const { api, doc, printed } = setup();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg">é</svg>';
    const base64 = Buffer.from(svg, 'utf8').toString('base64');
    api.on('output.export', () => ({ fileName: 'l.svg', mime: 'image/svg+xml', base64 }));
    await doc().selectTemplate(SUMMARY.ref);
    await doc().systemPrint();
    expect(printed).toEqual([{ svg, page: { width: '4in', height: '6in' } }]);
  });
});

describe('document helpers', () => {
  it('initialValues skips counters and uses defaults', () => {
    expect(initialValues(TEMPLATE.fields)).toEqual({ ship_to_name: '', address: '', service: 'STANDARD' });
  });
  it('valuesToSend leaves out empty values', () => {
    expect(valuesToSend({ a: '', b: 'x' })).toEqual({ b: 'x' });
  });
  it('parseCopies takes whole numbers from 1 to 1000 and refuses the rest (never clamps)', () => {
    expect(['1', ' 12 ', '1000'].map(parseCopies)).toEqual([{ copies: 1 }, { copies: 12 }, { copies: 1000 }]);
    for (const text of ['0', '-3', '5000', '2.4', '', 'ten']) {
      expect(parseCopies(text)).toEqual({ problem: 'Copies: type a whole number from 1 to 1000.' });
    }
  });
});
