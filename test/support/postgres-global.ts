/**
 * Vitest globalSetup of the `site-postgres` project (vitest.config.ts): one private PostgreSQL for the whole
 * run (test/support/postgres.ts), its URL provided to the test files as `postgresUrl`; each harness makes its
 * own database in it, so files and tests never meet. Stopped when the run ends (and by its watchdog if the run
 * is killed).
 */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The private PostgreSQL's admin URL (its `postgres` database), when the project runs on PostgreSQL. */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
