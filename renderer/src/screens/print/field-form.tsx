/**
 * The label's form, generated from the template's fields: one input per field type, required marks,
 * defaults, hints and main's validation messages. A scanner's Enter moves on; Enter on the last field prints.
 */
import { memo, useCallback, useEffect, type KeyboardEvent, type ReactNode } from 'react';
import type { Field } from '../../../../src/model/schema';
import { assertNever } from '../../../../src/base/assert-never';
import { enterAction, fieldInputId } from '../../lib/form-keys';
import { sameRef } from '../../store/catalog';
import { useConnection, useDocument, useStores, useUi } from '../../store/stores-context';

export function FieldForm() {
  const { document, ui, connection } = useStores();
  const pinned = useConnection((s) => s.settings?.pinnedTemplates);
  const detail = useDocument((s) => s.detail);
  const loading = useDocument((s) => s.loading);
  const values = useDocument((s) => s.values);
  const problems = useDocument((s) => s.problems);
  const cuts = useDocument((s) => s.cuts);
  const touched = useUi((s) => s.touched);
  const revealAll = useUi((s) => s.revealAllProblems);
  const focusRequest = useUi((s) => s.focusRequest);
  const selectedElement = useUi((s) => s.selectedElement);

  useEffect(() => {
    if (!focusRequest) return;
    const input = window.document.getElementById(fieldInputId(focusRequest.field));
    if (input) {
      input.focus();
      if (
        focusRequest.select &&
        (input instanceof HTMLInputElement || input instanceof HTMLTextAreaElement)
      ) {
        input.select();
      }
      input.scrollIntoView?.({ block: 'nearest' });
    }
  }, [focusRequest, detail]);

  const fields = detail?.template.fields;

  // One function each for every field (the field is an argument): the inputs are memoised, so a keystroke
  // re-renders the field typed in, not the whole form (#21).
  const onChange = useCallback(
    (field: Field, value: string) => document.getState().setValue(field.name, value),
    [document],
  );
  const onBlur = useCallback((field: Field) => ui.getState().touch(field.name), [ui]);
  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLElement>, field: Field) => {
      if (e.key !== 'Enter' || !fields) return;
      const action = enterAction(fields, field.name, e.nativeEvent);
      // A held Enter repeats: it must not print the label again (or race through the fields).
      if (e.repeat && action.kind !== 'none') {
        e.preventDefault();
        return;
      }
      switch (action.kind) {
        case 'focus':
          e.preventDefault();
          ui.getState().touch(field.name);
          ui.getState().focusField(action.field);
          return;
        case 'print':
          e.preventDefault();
          ui.getState().touch(field.name);
          void document.getState().print({ refocus: true });
          return;
        case 'none':
          return;
      }
    },
    [fields, document, ui],
  );

  if (!detail || !fields) {
    return (
      <section className="card form-card" aria-label="Fields">
        <p className="muted empty">
          {loading ? 'Loading template…' : 'Choose a template to fill in its fields.'}
        </p>
      </section>
    );
  }

  const isPinned = pinned?.some((p) => sameRef(p, detail.ref)) ?? false;
  const title = detail.template.title ?? detail.ref.name;
  const togglePin = async () => {
    const error = await connection.getState().togglePin(detail.ref);
    if (error) ui.getState().notify({ kind: 'error', error });
  };
  const linked = new Set(selectedElement === null ? [] : (detail.elementFields[selectedElement] ?? []));
  const fieldNames = new Set(fields.map((f) => f.name));
  const otherProblems = problems.filter((p) => !fieldNames.has(p.field));

  return (
    <section className="card form-card" aria-labelledby="form-title">
      <div className="card-head form-head">
        <h2 id="form-title">{title}</h2>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          aria-pressed={isPinned}
          title={
            isPinned ? 'Unpin: back to its place in the list' : 'Keep this template at the top of the list'
          }
          onClick={() => void togglePin()}
        >
          Pin to top
        </button>
        {detail.template.description && (
          <p className="muted small form-description" title={detail.template.description}>
            {detail.template.description}
          </p>
        )}
      </div>
      {fields.length === 0 && <p className="muted">This template has no fields: it prints as it is.</p>}
      <form className="fields" onSubmit={(e) => e.preventDefault()} noValidate>
        {fields.map((field) => {
          const problem = problems.find((p) => p.field === field.name);
          const value = values[field.name] ?? '';
          const show = !!problem && (revealAll || !!touched[field.name] || value !== '');
          return (
            <FieldInput
              key={field.name}
              field={field}
              value={value}
              problem={show ? problem.message : null}
              cut={cuts.find((c) => c.field === field.name)?.message ?? null}
              linked={linked.has(field.name)}
              onChange={onChange}
              onBlur={onBlur}
              onKeyDown={onKeyDown}
            />
          );
        })}
      </form>
      {otherProblems.length > 0 && (revealAll || Object.keys(touched).length > 0) && (
        <ul className="form-problems" role="alert">
          {otherProblems.map((p) => (
            <li key={`${p.field}:${p.message}`}>{p.message}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

interface FieldInputProps {
  field: Field;
  value: string;
  problem: string | null;
  /** The value does not fit on the label: what would be cut off (shown at once, not only once touched). */
  cut: string | null;
  linked: boolean;
  onChange(field: Field, value: string): void;
  onBlur(field: Field): void;
  onKeyDown(e: KeyboardEvent<HTMLElement>, field: Field): void;
}

/** One field's input; memoised: it re-renders when its own value, problem, cut or link changes. */
const FieldInput = memo(function FieldInput({
  field,
  value,
  problem,
  cut,
  linked,
  onChange: changed,
  onBlur: blurred,
  onKeyDown: keyDown,
}: FieldInputProps) {
  const onChange = (v: string) => changed(field, v);
  const onBlur = () => blurred(field);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => keyDown(e, field);
  const id = fieldInputId(field.name);
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;
  const emptyId = `${id}-empty`;
  const cutId = `${id}-cut`;
  // What a blank field prints (the template's placeholder, the API's rule). A required field is never blank
  // when printed from the app, so only an optional one can print it; the form says so rather than showing it
  // greyed out as if it were an example (#17: "ORDER: ORDER-00000" on real labels).
  const emptyPrints =
    !field.required && field.type !== 'counter' && field.placeholder !== '' ? field.placeholder : null;
  const showEmpty = emptyPrints !== null && value === '';
  const describedBy =
    [problem ? problemId : null, cut ? cutId : null, showEmpty ? emptyId : null, field.hint ? hintId : null]
      .filter(Boolean)
      .join(' ') || undefined;
  const common = {
    id,
    name: field.name,
    value,
    onBlur,
    onKeyDown,
    'aria-invalid': problem ? true : undefined,
    'aria-required': field.required || undefined,
    'aria-describedby': describedBy,
  } as const;

  let control: ReactNode;
  switch (field.type) {
    case 'text':
      control = (
        <input {...common} type="text" autoComplete="off" onChange={(e) => onChange(e.target.value)} />
      );
      break;
    case 'multiline':
      control = (
        <textarea
          {...common}
          rows={Math.min(
            6,
            Math.max(2, field.placeholder.split('\n').length, (field.default ?? '').split('\n').length),
          )}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'number':
      control = (
        <input
          {...common}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'date':
      control = <input {...common} type="date" onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'choice':
      control = (
        <select {...common} onChange={(e) => onChange(e.target.value)}>
          {(!field.required || value === '') && <option value="">—</option>}
          {(field.choices ?? []).map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      );
      break;
    case 'counter':
      control = (
        <output id={id} className="counter-value" aria-describedby={describedBy}>
          Assigned when printed
        </output>
      );
      break;
    default:
      return assertNever(field.type, 'field type');
  }

  return (
    <div
      className={`field${problem ? ' field-invalid' : ''}${cut ? ' field-cut' : ''}${linked ? ' field-linked' : ''}`}
    >
      <label className="field-label" htmlFor={id}>
        {field.label}
        {field.required && (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {control}
      {problem && (
        <p className="field-problem" id={problemId}>
          {problem}
        </p>
      )}
      {cut && (
        <p className="field-warning" id={cutId}>
          {cut}
        </p>
      )}
      {showEmpty && (
        <p className="field-hint field-empty" id={emptyId}>
          Left empty, this prints “{emptyPrints.replace(/\n/g, ' / ')}”.
        </p>
      )}
      {field.hint && (
        <p className="field-hint" id={hintId}>
          {field.hint}
        </p>
      )}
    </div>
  );
});
