/**
 * The template's fields — the form the Print screen shows: name, label, type, required, the placeholder that
 * prints when nothing is typed, and the rest of each field's settings (field-rules.tsx); add, remove, move. A field no element uses is flagged (it would be asked for
 * and never printed). A name is taken only once it is a valid, unused name (a rename follows into every
 * element that refers to the field, so a half-typed name must not reach them).
 */
import { useState } from 'react';
import type { TemplateProblemView } from '../../../../src/ipc/contract';
import { FIELD_NAME } from '../../../../src/model/refs';
import { FIELD_TYPES, type Field } from '../../../../src/model/schema';
import { Pill } from '../../components/status-pill';
import { unusedFields } from '../../design/fields';
import { useDesign, useStores } from '../../store/stores-context';
import { FieldRules } from './field-rules';
import { CheckInput, SelectInput, TextInput } from './prop-inputs';

const TYPE_NAMES: Record<Field['type'], string> = {
  text: 'Text',
  multiline: 'Several lines',
  number: 'Number',
  date: 'Date',
  choice: 'Choice',
  counter: 'Counter',
};

const NO_FIELDS: readonly Field[] = [];

function problemOf(problems: readonly TemplateProblemView[], index: number, key: string): string | undefined {
  const path = `fields[${index}].${key}`;
  const found = problems.filter((p) => p.path === path || p.path.startsWith(`${path}.`));
  return found.length ? found.map((p) => p.message).join('; ') : undefined;
}

function FieldName({ index, field }: { index: number; field: Field }) {
  const { design } = useStores();
  const fields = useDesign((s) => s.doc?.template.fields ?? NO_FIELDS);
  const [draft, setDraft] = useState<string | null>(null);
  const value = draft ?? field.name;
  let problem: string | undefined;
  if (draft !== null && draft !== field.name) {
    if (!FIELD_NAME.test(draft))
      problem = 'A field name starts with a letter or "_" and has only letters, digits, "_", "-", ".".';
    else if (fields.some((f, i) => i !== index && f.name === draft))
      problem = `Another field is called "${draft}".`;
  }
  return (
    <TextInput
      label={`Field ${index + 1} name`}
      value={value}
      problem={problem}
      onChange={(name) => {
        setDraft(name);
        if (FIELD_NAME.test(name) && !fields.some((f, i) => i !== index && f.name === name))
          design.getState().editField(index, { name }, { coalesceKey: `field:${index}:name` });
      }}
      onDone={() => {
        setDraft(null);
        design.getState().endCoalescing();
      }}
    />
  );
}

export function FieldsPanel({ problems }: { problems: readonly TemplateProblemView[] }) {
  const { design } = useStores();
  const doc = useDesign((s) => s.doc);
  if (!doc) return null;
  const { fields } = doc.template;
  const unused = new Set(unusedFields(doc).map((f) => f.name));
  const done = () => design.getState().endCoalescing();
  return (
    <section className="card design-fields" aria-labelledby="design-fields-title">
      <div className="card-head">
        <h2 id="design-fields-title">Fields</h2>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => design.getState().addField()}
        >
          Add field
        </button>
      </div>
      {fields.length === 0 && (
        <p className="muted small">
          No fields: the label prints as drawn. A field is what the Print screen asks for; insert it into a
          text, a barcode, an image address or an EPC.
        </p>
      )}
      <ol className="design-field-list">
        {fields.map((field, index) => (
          <li key={index} className="design-field-item">
            <fieldset>
              <legend>
                {field.label || field.name}
                {unused.has(field.name) && <Pill tone="warn">Not on the label</Pill>}
              </legend>
              <div className="design-grid">
                <FieldName index={index} field={field} />
                <TextInput
                  label={`Field ${index + 1} label`}
                  value={field.label}
                  problem={problemOf(problems, index, 'label')}
                  onChange={(label) =>
                    design.getState().editField(index, { label }, { coalesceKey: `field:${index}:label` })
                  }
                  onDone={done}
                />
                <SelectInput<Field['type']>
                  label={`Field ${index + 1} type`}
                  value={field.type}
                  options={FIELD_TYPES.map((t) => ({ value: t, label: TYPE_NAMES[t] }))}
                  problem={problemOf(problems, index, 'type')}
                  onChange={(type) => design.getState().editField(index, { type })}
                />
                <TextInput
                  label={`Field ${index + 1} placeholder`}
                  value={field.placeholder}
                  problem={problemOf(problems, index, 'placeholder')}
                  hint="Prints when nothing is typed."
                  onChange={(placeholder) =>
                    design
                      .getState()
                      .editField(index, { placeholder }, { coalesceKey: `field:${index}:placeholder` })
                  }
                  onDone={done}
                />
                <CheckInput
                  label={`Field ${index + 1} required`}
                  checked={field.required}
                  onChange={(required) => design.getState().editField(index, { required })}
                />
                <FieldRules index={index} field={field} problems={problems} />
              </div>
              <div className="row">
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  disabled={index === 0}
                  onClick={() => design.getState().moveField(index, index - 1)}
                  aria-label={`Move field ${index + 1} up`}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  disabled={index === fields.length - 1}
                  onClick={() => design.getState().moveField(index, index + 1)}
                  aria-label={`Move field ${index + 1} down`}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-small btn-danger-text"
                  onClick={() => design.getState().removeField(index)}
                >
                  Remove field {index + 1}
                </button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
    </section>
  );
}
