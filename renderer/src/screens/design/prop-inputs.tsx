/**
 * The designer's inputs: each labelled, its problem shown under it (the schema's message, or why what was
 * typed is not a number) and announced through aria-describedby. Numbers keep what is typed while the
 * input has the focus, so "0." can become "0.5"; each valid number is sent at once.
 */
import { useId, useState, type ReactNode, type Ref } from 'react';
import type { DesignState } from '../../store/design';
import { useDesign, useStores } from '../../store/stores-context';

/** Where the history is: changes by typing in one input (coalesced) leave it; an undo, redo or new entry moves it. */
const historyEpoch = (s: DesignState): string => `${s.past.length}/${s.future.length}`;

interface Common {
  label: string;
  problem?: string | undefined;
  /** The cursor left the input: the burst of typing in it ends (one undo entry). */
  onDone?(): void;
  hint?: ReactNode;
}

/** `1.5000` → `1.5`, to at most `decimals` places. */
export function formatNumber(value: number, decimals: number): string {
  return String(Number(value.toFixed(decimals)));
}

function Problem({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <span className="field-problem" id={id}>
      {text}
    </span>
  ) : null;
}

/** The ids an input's aria-describedby names: its problem and its hint, those it shows. */
function describedBy(id: string, problem: string | undefined, hint: ReactNode): string | undefined {
  return [problem ? `${id}-problem` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
}

/**
 * What is typed into an input, kept while the history stays where the typing left it: an undo or redo (a new
 * epoch) shows the value it brings instead. `null`: nothing typed since.
 */
function useTypingDraft(): [string | null, (text: string | null) => void] {
  const { design } = useStores();
  const epoch = useDesign(historyEpoch);
  const [typing, setTyping] = useState<{ text: string; epoch: string } | null>(null);
  const draft = typing?.epoch === epoch ? typing.text : null;
  const setDraft = (text: string | null) =>
    setTyping(text === null ? null : { text, epoch: historyEpoch(design.getState()) });
  return [draft, setDraft];
}

/** Under an input: its hint (`${id}-hint`) and its problem (`${id}-problem`), the ids aria-describedby names. */
function FieldFoot({ id, hint, problem }: { id: string; hint?: ReactNode; problem: string | undefined }) {
  return (
    <>
      {hint ? (
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      <Problem id={`${id}-problem`} text={problem} />
    </>
  );
}

export function NumberInput({
  label,
  value,
  decimals = 4,
  min,
  max,
  suffix,
  problem,
  onCommit,
  onClear,
  emptyText = 'Mixed',
  onDone,
  hint,
}: Common & {
  /** null: several elements with different values (shown empty until one is typed). */
  value: number | null;
  decimals?: number;
  min?: number;
  max?: number;
  suffix?: string;
  onCommit(value: number): void;
  /** An optional setting: emptying the input removes it (without this, empty is "type a number"). */
  onClear?(): void;
  /** What an empty input says (null value). */
  emptyText?: string;
}) {
  const id = useId();
  const [draft, setDraft] = useTypingDraft();
  const text = draft ?? (value === null ? '' : formatNumber(value, decimals));
  let typed: string | undefined;
  if (draft !== null) {
    const n = Number(draft.trim().replace(',', '.'));
    if (draft.trim() === '' && onClear) typed = undefined;
    else if (draft.trim() === '' || !Number.isFinite(n)) typed = `${label}: type a number.`;
    else if (min !== undefined && n < min) typed = `${label}: at least ${min}.`;
    else if (max !== undefined && n > max) typed = `${label}: at most ${max}.`;
  }
  const shown = typed ?? problem;
  return (
    <div className={`field design-field${shown ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
        {suffix ? ` (${suffix})` : null}
      </label>
      <input
        id={id}
        inputMode="decimal"
        value={text}
        placeholder={value === null ? emptyText : undefined}
        aria-invalid={shown ? true : undefined}
        aria-describedby={describedBy(id, shown, hint)}
        onChange={(e) => {
          const next = e.target.value;
          if (next.trim() === '' && onClear) {
            if (value !== null) onClear();
            setDraft(next);
            return;
          }
          const n = Number(next.trim().replace(',', '.'));
          const valid =
            next.trim() !== '' &&
            Number.isFinite(n) &&
            !(min !== undefined && n < min) &&
            !(max !== undefined && n > max);
          if (valid) onCommit(n);
          // After the commit: the history as this typing left it.
          setDraft(next);
        }}
        onBlur={() => {
          setDraft(null);
          onDone?.();
        }}
      />
      <FieldFoot id={id} hint={hint} problem={shown} />
    </div>
  );
}

/**
 * A list typed one item a line (choices). What is typed is kept while the history stays where the typing left
 * it, so a new line can be started before it has text; empty lines are not items.
 */
export function ListInput({
  label,
  value,
  problem,
  onChange,
  onDone,
  hint,
}: Common & { value: readonly string[]; onChange(value: string[]): void }) {
  const id = useId();
  const [draft, setDraft] = useTypingDraft();
  const text = draft ?? value.join('\n');
  return (
    <div className={`field design-field${problem ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        rows={Math.min(6, Math.max(2, value.length + 1))}
        value={text}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy(id, problem, hint)}
        onChange={(e) => {
          const next = e.target.value;
          onChange(next.split('\n').filter((line) => line !== ''));
          setDraft(next);
        }}
        onBlur={() => {
          setDraft(null);
          onDone?.();
        }}
      />
      <FieldFoot id={id} hint={hint} problem={problem} />
    </div>
  );
}

export function TextInput({
  label,
  value,
  problem,
  onChange,
  onDone,
  hint,
  multiline = false,
  inputRef,
}: Common & {
  value: string;
  onChange(value: string): void;
  multiline?: boolean;
  /** The input itself (Insert field reads its caret). */
  inputRef?: Ref<HTMLInputElement & HTMLTextAreaElement>;
}) {
  const id = useId();
  const props = {
    id,
    value,
    ref: inputRef,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': describedBy(id, problem, hint),
    onBlur: () => onDone?.(),
  };
  return (
    <div className={`field design-field${problem ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {multiline ? (
        <textarea rows={2} {...props} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...props} onChange={(e) => onChange(e.target.value)} />
      )}
      <FieldFoot id={id} hint={hint} problem={problem} />
    </div>
  );
}

export function SelectInput<T extends string>({
  label,
  value,
  options,
  problem,
  onChange,
}: Common & {
  value: T | '';
  options: readonly { value: T; label: string }[];
  onChange(value: T): void;
}) {
  const id = useId();
  return (
    <div className={`field design-field${problem ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(e) => onChange(e.target.value as T)}
      >
        {value === '' && <option value="">Mixed</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Problem id={`${id}-problem`} text={problem} />
    </div>
  );
}

export function CheckInput({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <label className="check design-check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}
