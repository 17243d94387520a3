/** Test support: the bundled templates, read straight from assets/templates. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseTemplate } from '../../src/template/parse';
import type { Template } from '../../src/template/schema';

export const TEMPLATES_DIR = join(import.meta.dirname, '../../assets/templates');

export function bundledTemplateNames(): string[] {
  return readdirSync(TEMPLATES_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
}

/** The raw JSON of a bundled template (for mutation tests). */
export function rawTemplate(name: string): unknown {
  return JSON.parse(readFileSync(join(TEMPLATES_DIR, `${name}.json`), 'utf8'));
}

export function bundledTemplate(name: string): Template {
  return parseTemplate(rawTemplate(name), name);
}
