/**
 * The template catalogue: what `templates.list` offers (bundled, user, captured), the picker's search, and
 * adding templates (import a file, capture a hosted one by name).
 */
import { createStore } from 'zustand/vanilla';
import type {
  BrokenTemplateView,
  LabelDeskApi,
  RequestOf,
  TemplateRef,
  TemplateSummary,
} from '../../../src/ipc/contract';
import { toUserError, type UserError } from '../ipc/user-error';

export interface CatalogState {
  templates: TemplateSummary[];
  broken: BrokenTemplateView[];
  loaded: boolean;
  query: string;
  error: UserError | null;
  busy: boolean;

  load(): Promise<void>;
  setQuery(query: string): void;
  clearError(): void;
  /** Checks and stores a template file; returns its summary, or null (the error is in `error`). */
  importFile(fileName: string, text: string): Promise<TemplateSummary | null>;
  capture(
    request: RequestOf<'templates.capture'>,
  ): Promise<{ summary: TemplateSummary; notes: string[] } | null>;
}

export const sameRef = (a: TemplateRef | null | undefined, b: TemplateRef | null | undefined): boolean =>
  !!a && !!b && a.source === b.source && a.name === b.name;

/**
 * Templates to print from first — pinned ones first (in `pinned` order), then recent ones (in `recent` order,
 * newest first), then by title —, test templates last; filtered by a search text (title, name, description,
 * source).
 */
export function visibleTemplates(
  templates: TemplateSummary[],
  query: string,
  recent: TemplateRef[] = [],
  pinned: TemplateRef[] = [],
): TemplateSummary[] {
  const q = query.trim().toLowerCase();
  const rank = (t: TemplateSummary): number => {
    const p = pinned.findIndex((r) => sameRef(r, t.ref));
    if (p >= 0) return p - pinned.length;
    const i = recent.findIndex((r) => sameRef(r, t.ref));
    if (i >= 0) return i;
    return t.recent ? recent.length : Number.MAX_SAFE_INTEGER;
  };
  return templates
    .filter(
      (t) =>
        !q ||
        t.ref.name.toLowerCase().includes(q) ||
        t.title.toLowerCase().includes(q) ||
        t.description.toLowerCase().includes(q) ||
        t.ref.source.includes(q),
    )
    .sort(
      (a, b) =>
        Number(a.purpose === 'test') - Number(b.purpose === 'test') ||
        rank(a) - rank(b) ||
        a.title.localeCompare(b.title),
    );
}

export function createCatalogStore(api: LabelDeskApi) {
  return createStore<CatalogState>()((set, get) => ({
    templates: [],
    broken: [],
    loaded: false,
    query: '',
    error: null,
    busy: false,

    load: async () => {
      try {
        const { templates, broken } = await api.invoke('templates.list', {});
        set({ templates, broken, loaded: true, error: null });
      } catch (e) {
        set({ loaded: true, error: toUserError(e) });
      }
    },
    setQuery: (query) => set({ query }),
    clearError: () => set({ error: null }),
    importFile: async (fileName, text) => {
      set({ busy: true, error: null });
      try {
        const summary = await api.invoke('templates.import', { fileName, text });
        await get().load();
        return summary;
      } catch (e) {
        set({ error: toUserError(e) });
        return null;
      } finally {
        set({ busy: false });
      }
    },
    capture: async (request) => {
      set({ busy: true, error: null });
      try {
        const result = await api.invoke('templates.capture', request);
        await get().load();
        return result;
      } catch (e) {
        set({ error: toUserError(e) });
        return null;
      } finally {
        set({ busy: false });
      }
    },
  }));
}

export type CatalogStore = ReturnType<typeof createCatalogStore>;
