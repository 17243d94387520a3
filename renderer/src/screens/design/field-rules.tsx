/**
 * A field's settings beyond its name, label, type and placeholder — the help text, the form's initial value,
 * the rules a typed value must meet (pattern, maximum length), a choice field's choices and a counter's
 * numbering — exactly the attributes the template schema's field has (`FieldSchema`). Each shows the schema's
 * problem at it as it is typed (a pattern that is no regular expression, an SSCC prefix that is not 6–12
 * digits), and the designer's own (a default the rules refuse, a choice listed twice). Every edit is undoable.
 */
import type { TemplateProblemView } from '../../../../src/ipc/contract';
import type { Counter, Field } from '../../../../src/model/schema';
import { fieldRuleProblems } from '../../design/fields';
import { useStores } from '../../store/stores-context';
import { CheckInput, ListInput, NumberInput, TextInput } from './prop-inputs';

/** A counter's settings as the schema reads an absent one. */
const COUNTER_DEFAULTS: Counter = { start: 1, step: 1, width: 0, prefix: '', suffix: '' };

function problemOf(problems: readonly TemplateProblemView[], index: number, key: string): string | undefined {
  const path = `fields[${index}].${key}`;
  const found = problems.filter((p) => p.path === path || p.path.startsWith(`${path}.`));
  return found.length ? found.map((p) => p.message).join('; ') : undefined;
}

const joined = (...texts: (string | undefined)[]): string | undefined =>
  texts.filter(Boolean).join(' ') || undefined;

export function FieldRules({
  index,
  field,
  problems,
}: {
  index: number;
  field: Field;
  problems: readonly TemplateProblemView[];
}) {
  const { design } = useStores();
  const done = () => design.getState().endCoalescing();
  const edit = (patch: Partial<Field>, key?: string) =>
    design.getState().editField(index, patch, key ? { coalesceKey: `field:${index}:${key}` } : {});
  const n = index + 1;
  const own = fieldRuleProblems(field);
  const counter = field.counter ?? COUNTER_DEFAULTS;
  const setCounter = (patch: Partial<Counter>, key?: string) => {
    const next: Counter = { ...counter, ...patch };
    if (patch.gs1 === undefined && 'gs1' in patch) delete next.gs1;
    edit({ counter: next }, key && `counter.${key}`);
  };
  const counterNumber = (key: 'start' | 'step' | 'width', label: string, min: number, max: number) => (
    <NumberInput
      label={`Field ${n} ${label}`}
      value={counter[key]}
      decimals={0}
      min={min}
      max={max}
      problem={problemOf(problems, index, `counter.${key}`)}
      onCommit={(v) => setCounter({ [key]: v }, key)}
      onDone={done}
    />
  );
  return (
    <>
      <TextInput
        label={`Field ${n} hint`}
        value={field.hint ?? ''}
        problem={problemOf(problems, index, 'hint')}
        hint="Help under the input on the Print screen."
        onChange={(hint) => edit({ hint: hint || undefined }, 'hint')}
        onDone={done}
      />
      {field.type !== 'counter' && (
        <>
          <TextInput
            label={`Field ${n} default`}
            value={field.default ?? ''}
            problem={joined(problemOf(problems, index, 'default'), own.default)}
            hint="The form starts with it."
            onChange={(value) => edit({ default: value || undefined }, 'default')}
            onDone={done}
          />
          <TextInput
            label={`Field ${n} pattern`}
            value={field.pattern ?? ''}
            problem={problemOf(problems, index, 'pattern')}
            hint="A regular expression the whole value must match, e.g. [A-Z]{2}\d{6}."
            onChange={(pattern) => edit({ pattern: pattern || undefined }, 'pattern')}
            onDone={done}
          />
          <NumberInput
            label={`Field ${n} maximum length`}
            suffix="characters"
            value={field.maxLength ?? null}
            emptyText="No maximum"
            decimals={0}
            min={1}
            max={100_000}
            problem={problemOf(problems, index, 'maxLength')}
            onCommit={(maxLength) => edit({ maxLength }, 'maxLength')}
            onClear={() => edit({ maxLength: undefined }, 'maxLength')}
            onDone={done}
          />
        </>
      )}
      {field.type === 'choice' && (
        <ListInput
          label={`Field ${n} choices`}
          value={field.choices ?? []}
          problem={joined(problemOf(problems, index, 'choices'), own.choices)}
          hint="One a line."
          onChange={(choices) => edit({ choices }, 'choices')}
          onDone={done}
        />
      )}
      {field.type === 'counter' && (
        <>
          {counterNumber('start', 'first number', 0, Number.MAX_SAFE_INTEGER)}
          {counterNumber('step', 'step', 1, 1_000_000)}
          {!counter.gs1 && (
            <>
              {counterNumber('width', 'digits (zero-padded)', 0, 32)}
              <TextInput
                label={`Field ${n} text before the number`}
                value={counter.prefix}
                problem={problemOf(problems, index, 'counter.prefix')}
                onChange={(prefix) => setCounter({ prefix }, 'prefix')}
                onDone={done}
              />
              <TextInput
                label={`Field ${n} text after the number`}
                value={counter.suffix}
                problem={problemOf(problems, index, 'counter.suffix')}
                onChange={(suffix) => setCounter({ suffix }, 'suffix')}
                onDone={done}
              />
            </>
          )}
          <CheckInput
            label={`Field ${n} numbers SSCCs (GS1)`}
            checked={counter.gs1 !== undefined}
            onChange={(on) =>
              setCounter(
                on
                  ? {
                      gs1: { kind: 'sscc', extension: '0', companyPrefix: '' },
                      prefix: '',
                      suffix: '',
                      width: 0,
                    }
                  : { gs1: undefined },
              )
            }
          />
          {counter.gs1 && (
            <>
              <TextInput
                label={`Field ${n} SSCC extension digit`}
                value={counter.gs1.extension}
                problem={problemOf(problems, index, 'counter.gs1.extension')}
                onChange={(extension) => setCounter({ gs1: { ...counter.gs1!, extension } }, 'extension')}
                onDone={done}
              />
              <TextInput
                label={`Field ${n} GS1 company prefix`}
                value={counter.gs1.companyPrefix}
                problem={problemOf(problems, index, 'counter.gs1.companyPrefix')}
                hint="6 to 12 digits, as GS1 allocated it."
                onChange={(companyPrefix) =>
                  setCounter({ gs1: { ...counter.gs1!, companyPrefix } }, 'companyPrefix')
                }
                onDone={done}
              />
            </>
          )}
        </>
      )}
    </>
  );
}
