/**
 * The properties of the selection, in the document's unit (inches or millimetres; line widths in dots, font
 * sizes in points), each with the template schema's problem at it. Several elements selected: what they have
 * in common (a value they differ in shows empty until one is typed for all). Nothing selected: the template
 * itself (name, title, size, unit, dpi). Every edit goes to the design store; typing in one input is one
 * undo entry.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { assertNever } from '../../../../src/base/assert-never';
import type { TemplateProblemView } from '../../../../src/ipc/contract';
import { BARCODE_FORMATS, type Element } from '../../../../src/model/elements';
import { formatLabel, ITF_BEARERS } from '../../../../src/model/barcode/formats';
import {
  dots,
  dotsToPx,
  inchesToStage,
  ptToSceneUnits,
  px,
  pxToDots,
  pxToInches,
  pxToPt,
  stageToPx,
} from '../../../../src/units/units';
import { DESIGN_DPIS, DESIGN_UNITS, type DesignDpi, type DesignUnit } from '../../design/design-document';
import { sampleFix } from '../../design/design-values';
import { referenceAttributes } from '../../design/fields';
import { elementBox } from '../../design/geometry';
import { withElements } from '../../design/operations';
import type { DesignStore } from '../../store/design';
import { useDesign, useStores } from '../../store/stores-context';
import { ImageFileInput } from './image-file-input';
import { CheckInput, NumberInput, SelectInput, TextInput } from './prop-inputs';

/** What people call each kind. */
export const KIND_NAMES: Record<Element['type'], string> = {
  text: 'Text',
  image: 'Image',
  barcode: 'Barcode',
  line: 'Line',
  rect: 'Rectangle',
  circle: 'Circle',
  ellipse: 'Ellipse',
  wedge: 'Wedge',
  ring: 'Ring',
  arc: 'Arc',
  rfid: 'RFID tag',
};

/** The bundled families by a name every output maps to them (sans, serif, mono). */
const FAMILIES = [
  { value: 'Arial', label: 'Sans (Arial)' },
  { value: 'Times New Roman', label: 'Serif (Times New Roman)' },
  { value: 'Courier New', label: 'Mono (Courier New)' },
];

const DECIMALS: Record<DesignUnit, number> = { in: 4, mm: 3 };

/**
 * The user's fonts (`<data dir>/fonts`) and the machine's, for the Font list after the generic three; asked once
 * per mount. A template naming one prints with it on this computer (labeldesk serve: the server's own fonts).
 */
function useInstalledFamilies(): { value: string; label: string }[] {
  const { api } = useStores();
  const [families, setFamilies] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    api
      .invoke('fonts.families', {})
      .then((view) => live && setFamilies(view.families))
      .catch(() => undefined); // no list: the generic families still are
    return () => {
      live = false;
    };
  }, [api]);
  return useMemo(() => families.map((f) => ({ value: f, label: f })), [families]);
}

export const toUnit = (v: number, unit: DesignUnit): number => inchesToStage(pxToInches(px(v)), unit);
export const fromUnit = (v: number, unit: DesignUnit): number => stageToPx(v, unit);

/** The one value every item has, else null (they differ). */
function common<T>(values: readonly T[]): T | null {
  const [first] = values;
  if (first === undefined) return null;
  return values.every((v) => v === first || (typeof v === 'number' && Math.abs(v - (first as number)) < 1e-9))
    ? first
    : null;
}

/** The problems at `path` (or inside it), as one sentence. */
function problemAt(problems: readonly TemplateProblemView[], paths: readonly string[]): string | undefined {
  const found = problems.filter((p) =>
    paths.some((path) => p.path === path || p.path.startsWith(`${path}.`) || p.path.startsWith(`${path}[`)),
  );
  return found.length ? [...new Set(found.map((p) => p.message))].join('; ') : undefined;
}

/** Applies `f` to each selected element, as one change. */
function editEach(design: DesignStore, f: (el: Element) => Element, coalesceKey?: string) {
  design.getState().change(
    (doc, selection) =>
      withElements(
        doc,
        doc.template.elements.map((el, i) => (selection.includes(i) ? f(el) : el)),
      ),
    coalesceKey ? { coalesceKey } : {},
  );
}

export function PropertiesPanel({ problems }: { problems: readonly TemplateProblemView[] }) {
  const doc = useDesign((s) => s.doc);
  const selection = useDesign((s) => s.selection);
  if (!doc) return null;
  return (
    <section className="card design-props" aria-labelledby="design-props-title">
      <h2 id="design-props-title">
        {selection.length === 0
          ? 'Template'
          : selection.length === 1
            ? `${KIND_NAMES[doc.template.elements[selection[0]!]?.type ?? 'text']} properties`
            : `${selection.length} elements`}
      </h2>
      {selection.length === 0 ? (
        <TemplateProperties problems={problems} />
      ) : (
        <ElementProperties problems={problems} />
      )}
    </section>
  );
}

function TemplateProperties({ problems }: { problems: readonly TemplateProblemView[] }) {
  const { design } = useStores();
  const doc = useDesign((s) => s.doc)!;
  const { template, unit, dpi } = doc;
  const { stage } = template;
  const width = toUnit(stageToPx(stage.width, stage.unit), unit);
  const height = toUnit(stageToPx(stage.height, stage.unit), unit);
  const done = () => design.getState().endCoalescing();
  const setSize = (patch: { width?: number; height?: number }) =>
    design
      .getState()
      .setTemplateProperties(
        { stage: { ...stage, width: patch.width ?? width, height: patch.height ?? height, unit } },
        { coalesceKey: `stage:${Object.keys(patch)[0]}` },
      );
  return (
    <div className="design-grid">
      <TextInput
        label="Template name"
        value={template.name}
        problem={problemAt(problems, ['name'])}
        onChange={(name) => design.getState().setTemplateProperties({ name }, { coalesceKey: 'tpl:name' })}
        onDone={done}
        hint="Also its file name."
      />
      <TextInput
        label="Title"
        value={template.title ?? ''}
        problem={problemAt(problems, ['title'])}
        onChange={(title) =>
          design.getState().setTemplateProperties({ title: title || undefined }, { coalesceKey: 'tpl:title' })
        }
        onDone={done}
      />
      <NumberInput
        label="Label width"
        suffix={unit}
        value={width}
        decimals={DECIMALS[unit]}
        min={0}
        problem={problemAt(problems, ['stage.width', 'stage'])}
        onCommit={(v) => setSize({ width: v })}
        onDone={done}
      />
      <NumberInput
        label="Label height"
        suffix={unit}
        value={height}
        decimals={DECIMALS[unit]}
        min={0}
        problem={problemAt(problems, ['stage.height'])}
        onCommit={(v) => setSize({ height: v })}
        onDone={done}
      />
      <SelectInput<DesignUnit>
        label="Unit"
        value={unit}
        options={DESIGN_UNITS.map((u) => ({ value: u, label: u === 'in' ? 'inches' : 'millimetres' }))}
        onChange={(u) => design.getState().setUnit(u)}
      />
      <SelectInput<`${DesignDpi}`>
        label="Printer resolution (grid)"
        value={`${dpi}`}
        options={DESIGN_DPIS.map((d) => ({ value: `${d}` as const, label: `${d} dpi` }))}
        onChange={(d) => design.getState().setDpi(Number(d) as DesignDpi)}
      />
      <Revisions />
    </div>
  );
}

/**
 * The versions a save replaced (the last ten): one made current again opens it (the one it replaces is kept
 * in turn, so a restore can be undone by restoring that one).
 */
function Revisions() {
  const { design } = useStores();
  const savedAs = useDesign((s) => s.savedAs);
  const revisions = useDesign((s) => s.revisions);
  const dirty = useDesign((s) => s.dirty);
  const busy = useDesign((s) => s.busy);
  const [open, setOpen] = useState(false);
  if (savedAs === null) return null;
  return (
    <div className="design-revisions">
      <button
        type="button"
        className="btn btn-ghost btn-small"
        aria-expanded={open}
        onClick={() => {
          if (!open) void design.getState().loadRevisions();
          setOpen(!open);
        }}
      >
        Earlier versions
      </button>
      {open &&
        (revisions.length === 0 ? (
          <p className="muted small">No earlier version: each save keeps the one it replaces.</p>
        ) : (
          <>
            {dirty && <p className="muted small">Save or undo your changes to restore a version.</p>}
            <ul className="design-revision-list" aria-label="Earlier versions">
              {revisions.map((r) => {
                const when = new Date(r.savedAt).toLocaleString();
                return (
                  <li key={r.id}>
                    <span>{when}</span>
                    <button
                      type="button"
                      className="btn btn-secondary btn-small"
                      disabled={dirty || busy}
                      aria-label={`Restore the version saved ${when}`}
                      onClick={() => void design.getState().restoreRevision(r.id)}
                    >
                      Restore
                    </button>
                  </li>
                );
              })}
            </ul>
          </>
        ))}
    </div>
  );
}

function ElementProperties({ problems }: { problems: readonly TemplateProblemView[] }) {
  const { design } = useStores();
  const doc = useDesign((s) => s.doc)!;
  const selection = useDesign((s) => s.selection);
  const { template, unit, dpi } = doc;
  const els = selection.flatMap((i) => template.elements[i] ?? []);
  const boxes = els.map(elementBox);
  const done = () => design.getState().endCoalescing();
  const at = (attr: string) =>
    problemAt(
      problems,
      selection.map((i) => `elements[${i}].${attr}`),
    );
  const type = common(els.map((el) => el.type));
  // The input of the value a field is inserted into (its caret or selection is where Insert field puts it).
  const valueInput = useRef<ValueInput>(null);

  const placeAll = (key: 'x' | 'y' | 'width' | 'height', v: number) =>
    design
      .getState()
      .placeBoxes(new Map(selection.map((i, k) => [i, { ...boxes[k]!, [key]: fromUnit(v, unit) }])), {
        coalesceKey: `prop:${key}`,
      });
  const set = (attr: string, value: unknown) =>
    design.getState().setProperties({ [attr]: value }, { coalesceKey: `prop:${attr}` });
  const lengthInput = (key: 'x' | 'y' | 'width' | 'height', label: string) => (
    <NumberInput
      key={key}
      label={label}
      suffix={unit}
      value={common(boxes.map((b) => toUnit(b[key], unit)))}
      decimals={DECIMALS[unit]}
      {...(key === 'width' || key === 'height' ? { min: 0 } : {})}
      problem={at(key)}
      onCommit={(v) => placeAll(key, v)}
      onDone={done}
    />
  );

  return (
    <>
      <div className="design-grid">
        {lengthInput('x', 'X')}
        {lengthInput('y', 'Y')}
        {lengthInput('width', 'Width')}
        {lengthInput('height', 'Height')}
        <NumberInput
          label="Rotation"
          suffix="°"
          value={common(els.map((el) => el.rotation))}
          decimals={2}
          min={-360}
          max={360}
          problem={at('rotation')}
          onCommit={(v) => set('rotation', v)}
          onDone={done}
        />
      </div>
      {type === 'text' && (
        <TextProperties els={els as Extract<Element, { type: 'text' }>[]} at={at} valueInput={valueInput} />
      )}
      {type === 'barcode' && (
        <BarcodeProperties
          els={els as Extract<Element, { type: 'barcode' }>[]}
          at={at}
          valueInput={valueInput}
        />
      )}
      {type === 'image' && <ImageFileInput key={selection.join(',')} />}
      {type === 'image' && (
        <TextInput
          label="Image address"
          inputRef={valueInput}
          value={common(els.map((el) => (el.type === 'image' ? el.url : ''))) ?? ''}
          problem={at('url')}
          onChange={(url) => set('url', url)}
          onDone={done}
          hint="A data: URL (an image file chosen above), an http(s) address or a file path."
        />
      )}
      {type === 'rfid' && (
        <TextInput
          label="EPC (hex)"
          inputRef={valueInput}
          value={common(els.map((el) => (el.type === 'rfid' ? el.epc : ''))) ?? ''}
          problem={at('epc')}
          onChange={(epc) => set('epc', epc)}
          onDone={done}
        />
      )}
      {type !== null && type !== 'text' && type !== 'barcode' && type !== 'image' && type !== 'rfid' && (
        <div className="design-grid">
          <TextInput
            label="Line colour"
            value={common(els.map((el) => el.stroke ?? '')) ?? ''}
            problem={at('stroke')}
            onChange={(v) => set('stroke', v || undefined)}
            onDone={done}
          />
          <TextInput
            label="Fill colour"
            value={common(els.map((el) => el.fill ?? '')) ?? ''}
            problem={at('fill')}
            onChange={(v) => set('fill', v || undefined)}
            onDone={done}
          />
          <NumberInput
            label="Line width"
            suffix="dots"
            value={common(els.map((el) => Math.round(pxToDots(px(el.strokeWidth ?? 0), dpi))))}
            decimals={0}
            min={0}
            problem={at('strokeWidth')}
            onCommit={(v) => set('strokeWidth', dotsToPx(dots(Math.round(v)), dpi))}
            onDone={done}
          />
        </div>
      )}
      {type !== null && <KindProperties type={type} els={els} at={at} />}
      <CheckInput
        label="Hide when its fields are empty"
        checked={els.every((el) => el.hideIfEmpty === true)}
        onChange={(hide) => set('hideIfEmpty', hide || undefined)}
      />
      {selection.length === 1 && <BindField index={selection[0]!} valueInput={valueInput} />}
    </>
  );
}

function TextProperties({
  els,
  at,
  valueInput,
}: {
  els: Extract<Element, { type: 'text' }>[];
  at: (attr: string) => string | undefined;
  valueInput: RefObject<ValueInput | null>;
}) {
  const { design } = useStores();
  const installed = useInstalledFamilies();
  const done = () => design.getState().endCoalescing();
  const font = (patch: Partial<Extract<Element, { type: 'text' }>['font']>, key: string) =>
    editEach(design, (el) => (el.type === 'text' ? { ...el, font: { ...el.font, ...patch } } : el), key);
  const family = common(els.map((el) => el.font.family));
  const styles = els.map((el) => el.font.style);
  const bold = styles.every((s) => s.includes('bold'));
  const italic = styles.every((s) => s.includes('italic'));
  const setStyle = (b: boolean, i: boolean) =>
    font({ style: b && i ? 'bold italic' : b ? 'bold' : i ? 'italic' : 'normal' }, 'prop:style');
  return (
    <div className="design-grid">
      <TextInput
        label="Content"
        multiline
        inputRef={valueInput}
        value={common(els.map((el) => el.text)) ?? ''}
        problem={at('text')}
        onChange={(text) => design.getState().setProperties({ text }, { coalesceKey: 'prop:text' })}
        onDone={done}
        hint="{name} prints the field called name."
      />
      <SelectInput<string>
        label="Font"
        value={family ?? ''}
        options={
          family === null || [...FAMILIES, ...installed].some((f) => f.value === family)
            ? [...FAMILIES, ...installed]
            : [...FAMILIES, ...installed, { value: family, label: `${family} (not on this computer)` }]
        }
        onChange={(family) => font({ family }, 'prop:family')}
      />
      <NumberInput
        label="Font size"
        suffix="pt"
        value={common(els.map((el) => pxToPt(px(el.font.size))))}
        decimals={1}
        min={1}
        max={1500}
        problem={at('font.size')}
        onCommit={(pt) => font({ size: ptToSceneUnits(pt, 96) }, 'prop:size')}
        onDone={done}
      />
      <SelectInput<'left' | 'center' | 'right'>
        label="Alignment"
        value={common(els.map((el) => el.align)) ?? ''}
        options={[
          { value: 'left', label: 'Left' },
          { value: 'center', label: 'Centre' },
          { value: 'right', label: 'Right' },
        ]}
        onChange={(align) => design.getState().setProperties({ align })}
      />
      <CheckInput label="Bold" checked={bold} onChange={(b) => setStyle(b, italic)} />
      <CheckInput label="Italic" checked={italic} onChange={(i) => setStyle(bold, i)} />
    </div>
  );
}

function BarcodeProperties({
  els,
  at,
  valueInput,
}: {
  els: Extract<Element, { type: 'barcode' }>[];
  at: (attr: string) => string | undefined;
  valueInput: RefObject<ValueInput | null>;
}) {
  const { design } = useStores();
  const doc = useDesign((s) => s.doc)!;
  const selection = useDesign((s) => s.selection);
  const done = () => design.getState().endCoalescing();
  const fix = selection.length === 1 ? sampleFix(doc.template, selection[0]!) : null;
  return (
    <div className="design-grid">
      <SelectInput<(typeof BARCODE_FORMATS)[number]>
        label="Symbology"
        value={common(els.map((el) => el.format)) ?? ''}
        options={BARCODE_FORMATS.map((f) => ({ value: f, label: formatLabel(f) }))}
        problem={at('format')}
        onChange={(format) => design.getState().setProperties({ format })}
      />
      <TextInput
        label="Value"
        inputRef={valueInput}
        value={common(els.map((el) => el.text)) ?? ''}
        problem={at('text')}
        onChange={(text) => design.getState().setProperties({ text }, { coalesceKey: 'prop:value' })}
        onDone={done}
        hint="{sku} encodes the field called sku."
      />
      {fix && (
        <button
          type="button"
          className="btn btn-secondary btn-small design-sample-fix"
          onClick={() => design.getState().editField(fix.field, { placeholder: fix.sample })}
        >
          Use {fix.sample} as {fix.label}’s placeholder
        </button>
      )}
      <CheckInput
        label="Human-readable text"
        checked={els.every((el) => el.humanReadable !== false)}
        onChange={(humanReadable) => design.getState().setProperties({ humanReadable })}
      />
    </div>
  );
}

/** The input holding the value a field is inserted into. */
type ValueInput = HTMLInputElement & HTMLTextAreaElement;

/**
 * Puts a field's `{Name}` into the element's text, value, address or EPC: over a value the palette made, else
 * at the caret of its input (over its selection), else at the end (fields.ts `bindField`).
 */
function BindField({ index, valueInput }: { index: number; valueInput: RefObject<ValueInput | null> }) {
  const { design } = useStores();
  const doc = useDesign((s) => s.doc)!;
  const el = doc.template.elements[index];
  const names = doc.template.fields.map((f) => f.name);
  const [chosen, setChosen] = useState('');
  if (!el || referenceAttributes(el).length === 0) return null;
  const name = names.includes(chosen) ? chosen : (names[0] ?? '');
  return (
    <div className="design-bind">
      <label className="field design-field">
        <span className="field-label">Field to insert</span>
        <select value={name} disabled={!names.length} onChange={(e) => setChosen(e.target.value)}>
          {names.length === 0 && <option value="">No fields yet</option>}
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="btn btn-secondary btn-small"
        disabled={!name}
        onClick={() => {
          const input = valueInput.current;
          const at =
            input?.isConnected && input.selectionStart !== null && input.selectionEnd !== null
              ? { start: input.selectionStart, end: input.selectionEnd }
              : undefined;
          design.getState().bindField(index, name, at ? { at } : {});
        }}
      >
        Insert field
      </button>
    </div>
  );
}

/** The settings particular to a kind beyond the common ones: shapes' radii and angles, text layout, image fit,
 * barcode options, the RFID write. */
function KindProperties({
  type,
  els,
  at,
}: {
  type: Element['type'];
  els: readonly Element[];
  at: (attr: string) => string | undefined;
}) {
  const { design } = useStores();
  const doc = useDesign((s) => s.doc)!;
  const { unit } = doc;
  const done = () => design.getState().endCoalescing();
  const set = (attr: string, value: unknown, coalesce = true) =>
    design.getState().setProperties({ [attr]: value }, coalesce ? { coalesceKey: `prop:${attr}` } : {});
  const attr = <T,>(name: string): T | null =>
    common(els.map((el) => (el as unknown as Record<string, unknown>)[name] as T));
  const choice = <T extends string>(
    name: string,
    label: string,
    options: readonly { value: T; label: string }[],
  ) => (
    <SelectInput<T>
      key={name}
      label={label}
      value={attr<T>(name) ?? ''}
      options={options}
      problem={at(name)}
      onChange={(v) => set(name, v, false)}
    />
  );
  const length = (name: string, label: string) => (
    <NumberInput
      key={name}
      label={label}
      suffix={unit}
      value={attr<number>(name) === null ? null : toUnit(attr<number>(name)!, unit)}
      decimals={DECIMALS[unit]}
      min={0}
      problem={at(name)}
      onCommit={(v) => set(name, fromUnit(v, unit))}
      onDone={done}
    />
  );
  /** A plain number attribute (not a length: no unit conversion). */
  const number = (name: string, label: string, suffix: string, min: number, max: number) => (
    <NumberInput
      key={name}
      label={label}
      suffix={suffix}
      value={attr<number>(name)}
      decimals={2}
      min={min}
      max={max}
      problem={at(name)}
      onCommit={(v) => set(name, v)}
      onDone={done}
    />
  );
  const angle = () => number('angle', 'Angle', '°', 0, 360);
  const words = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));
  let controls: ReactNode[] = [];
  switch (type) {
    case 'text':
      controls = [
        choice('verticalAlign', 'Vertical alignment', words(['top', 'middle', 'bottom'])),
        choice('wrap', 'Wrap', words(['word', 'char', 'none'])),
        choice('direction', 'Direction', [
          { value: 'ltr', label: 'Left to right' },
          { value: 'rtl', label: 'Right to left' },
          { value: 'ttb', label: 'Top to bottom' },
        ]),
        number('lineHeight', 'Line height', '× size', 0.5, 5),
      ];
      break;
    case 'image':
      controls = [
        choice('fit', 'Fit', words(['contain', 'fill'])),
        choice('monochrome', 'On 1-bit printers', words(['dither', 'threshold'])),
      ];
      break;
    case 'barcode': {
      const format = attr<string>('format');
      // The X-dimension in whole dots of the designer's printer; stored as px (96 dpi) like every length.
      const moduleWidth = attr<number>('moduleWidth');
      const moduleDots = moduleWidth === null ? null : Math.max(1, Math.round((moduleWidth * doc.dpi) / 96));
      controls.push(
        <NumberInput
          key="moduleWidth"
          label="Module width"
          suffix="dots"
          value={moduleDots}
          decimals={0}
          min={1}
          max={40}
          emptyText="Fit the box"
          problem={at('moduleWidth')}
          hint={
            moduleDots === null
              ? 'Empty: the widest module the box holds. A number fixes the X-dimension whatever the value.'
              : `${((moduleDots / doc.dpi) * 25.4).toFixed(3)} mm at ${doc.dpi} dpi; empty to fit the box.`
          }
          onCommit={(dots) => set('moduleWidth', (Math.round(dots) / doc.dpi) * 96)}
          onClear={() => set('moduleWidth', undefined, false)}
          onDone={done}
        />,
      );
      if (format === 'itf14') controls.push(choice('bearer', 'Bearer bars', words(ITF_BEARERS)));
      if (format === 'qrcode' || format === 'gs1qrcode')
        controls.push(choice('eclevel', 'Error correction', words(['L', 'M', 'Q', 'H'])));
      if (format === 'pdf417')
        controls.push(
          choice('eclevel', 'Error correction', words(['0', '1', '2', '3', '4', '5', '6', '7', '8'])),
        );
      break;
    }
    case 'rect':
      controls = [length('cornerRadius', 'Corner radius')];
      break;
    case 'wedge':
      controls = [angle()];
      break;
    case 'ring':
      controls = [length('innerRadius', 'Inner radius')];
      break;
    case 'arc':
      controls = [length('innerRadius', 'Inner radius'), angle()];
      break;
    case 'rfid':
      controls = [
        choice('bank', 'Memory bank', words(['epc', 'user'])),
        <SelectInput<'96' | '128' | '256'>
          key="bits"
          label="EPC size (bits)"
          value={attr<number>('bits') === null ? '' : (String(attr<number>('bits')) as '96' | '128' | '256')}
          options={words(['96', '128', '256']) as { value: '96' | '128' | '256'; label: string }[]}
          problem={at('bits')}
          onChange={(v) => set('bits', Number(v), false)}
        />,
        choice('lock', 'Lock', words(['none', 'lock', 'permalock'])),
      ];
      break;
    case 'line':
    case 'circle':
    case 'ellipse':
      break;
    default:
      return assertNever(type, 'element type');
  }
  return controls.length ? <div className="design-grid">{controls}</div> : null;
}
