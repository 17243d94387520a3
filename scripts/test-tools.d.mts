/** The system tools the tests spawn (see test-tools.mjs). */
export interface TestTool {
  what: string;
  /** The programs of the package that tests spawn by name. */
  commands: string[];
  /** The Debian package that brings it. */
  pkg: string;
  optional?: boolean;
}
export const TOOLS: TestTool[];
export const DEBIAN_PYTHON: string;
