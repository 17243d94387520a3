/**
 * Import a template file into the designer: the file is read here and parsed with the template schema (every
 * problem listed, by path, before anything is sent); a template that parses is added to the user's folder
 * through the save the designer uses (`templates.save`, checked again in main, never over another template)
 * and opened. A name already taken — in the user's folder, or by a bundled or captured template — asks for
 * another name.
 */
import { useId, useState, type FormEvent } from 'react';
import { TemplateValidationError } from '../../../../src/model/errors';
import { parseTemplateText } from '../../../../src/model/parse';
import type { Template } from '../../../../src/model/schema';
import { templateFileNameProblem } from '../../../../src/model/template-name';
import { ErrorNotice } from '../../components/error-notice';
import type { DesignDpi } from '../../design/design-document';
import { useCatalog, useDesign, useStores } from '../../store/stores-context';
import { Modal } from '../../components/modal';

/** The largest template file read (the size `templates.import` takes). */
export const MAX_TEMPLATE_FILE_BYTES = 5_000_000;

interface Problem {
  path: string;
  message: string;
}

export function ImportTemplateDialog({ dpi, onClose }: { dpi: DesignDpi; onClose(imported: boolean): void }) {
  const { design } = useStores();
  const templates = useCatalog((s) => s.templates);
  const busy = useDesign((s) => s.busy);
  const error = useDesign((s) => s.error);
  const fileId = useId();
  const nameId = useId();
  const [fileName, setFileName] = useState<string | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [template, setTemplate] = useState<Template | null>(null);
  const [name, setName] = useState('');
  /** What main said of the name tried last (taken meanwhile, or a bundled template's). */
  const [refused, setRefused] = useState<{ name: string; message: string } | null>(null);

  const take = async (file: File) => {
    setFileName(file.name);
    setFileProblem(null);
    setProblems([]);
    setTemplate(null);
    setRefused(null);
    if (file.size === 0) return setFileProblem(`“${file.name}” is empty (0 bytes).`);
    if (file.size > MAX_TEMPLATE_FILE_BYTES)
      return setFileProblem(
        `“${file.name}” is ${(file.size / 1e6).toFixed(1)} MB; a template file may be at most ${MAX_TEMPLATE_FILE_BYTES / 1e6} MB.`,
      );
    let text: string;
    try {
      text = await file.text();
    } catch {
      return setFileProblem(`“${file.name}” could not be read.`);
    }
    try {
      const parsed = parseTemplateText(text, file.name);
      setTemplate(parsed);
      setName(parsed.name);
    } catch (e) {
      if (!(e instanceof TemplateValidationError)) throw e;
      setProblems(e.problems);
    }
  };

  const trimmed = name.trim();
  const nameProblem = template
    ? (templateFileNameProblem(trimmed) ??
      (templates.some((t) => t.ref.name === trimmed)
        ? `A template is already called “${trimmed}”: choose another name.`
        : refused?.name === trimmed
          ? refused.message
          : null))
    : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!template || nameProblem || busy) return;
    const result = await design.getState().importTemplate({ ...template, name: trimmed }, { dpi });
    if (result.kind === 'imported') onClose(true);
    else if (result.kind === 'name-taken') setRefused({ name: trimmed, message: result.message });
    else if (result.kind === 'problems') setProblems(result.problems);
  };

  return (
    <Modal title="Import a template" titleId="import-template-title" onCancel={() => onClose(false)}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <div className={`field${fileProblem || problems.length ? ' field-invalid' : ''}`}>
          <label className="field-label" htmlFor={fileId}>
            Template file
          </label>
          <input
            id={fileId}
            type="file"
            accept=".json,application/json"
            autoFocus
            aria-invalid={fileProblem || problems.length ? true : undefined}
            aria-describedby={fileProblem ? `${fileId}-problem` : undefined}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (file) void take(file);
            }}
          />
          {fileProblem && (
            <span className="field-problem" id={`${fileId}-problem`} role="alert">
              {fileProblem}
            </span>
          )}
        </div>
        {problems.length > 0 && (
          <div className="notice notice-error" role="alert">
            <div>
              <p>
                “{fileName}” is not a template LabelDesk can use:{' '}
                {problems.length === 1 ? 'one problem' : `${problems.length} problems`}.
              </p>
              <ul aria-label="Problems in the file">
                {problems.slice(0, 20).map((p, i) => (
                  <li key={i}>{p.path ? `${p.path}: ${p.message}` : p.message}</li>
                ))}
              </ul>
              {problems.length > 20 && <p>…and {problems.length - 20} more.</p>}
            </div>
          </div>
        )}
        {template && (
          <div className={`field${nameProblem ? ' field-invalid' : ''}`}>
            <label className="field-label" htmlFor={nameId}>
              Name of the imported template
            </label>
            <input
              id={nameId}
              value={name}
              aria-invalid={nameProblem ? true : undefined}
              aria-describedby={nameProblem ? `${nameId}-problem` : undefined}
              onChange={(e) => setName(e.target.value)}
            />
            {nameProblem && (
              <span className="field-problem" id={`${nameId}-problem`}>
                {nameProblem}
              </span>
            )}
          </div>
        )}
        {error && <ErrorNotice error={error} />}
        <div className="dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => onClose(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={!template || !!nameProblem || busy}>
            Import and open
          </button>
        </div>
      </form>
    </Modal>
  );
}
