// ESLint: typescript-eslint plus the package boundaries of ARCHITECTURE.md ("Rules that are checked"). The
// layering between src/'s folders and the ban on import cycles are dependency-cruiser's (.dependency-cruiser.cjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = {
  group: ['node:*'],
  message: 'src/ is pure: Node built-ins only in the Node wing (src/node/) and the CLI (src/cli/).',
};
const noAppLayers = [
  { group: ['**/main/**', '../main/*', '../../main/*'], message: 'src/ never imports main/.' },
  {
    group: ['**/renderer/**', '../renderer/*', '../../renderer/*'],
    message: 'src/ never imports renderer/.',
  },
];
const uiLibs = ['electron', 'react', 'react-dom', 'konva', 'react-konva', 'zustand'].map((name) => ({
  name,
  message: 'src/ is the engine: no UI or Electron libraries.',
}));

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'coverage/', 'assets/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Tests poke at malformed JSON on purpose.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The pure engine: no Node built-ins, no UI, nothing of the app.
    files: ['src/**/*.ts'],
    ignores: ['src/node/**', 'src/cli/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: uiLibs, patterns: [nodeBuiltins, ...noAppLayers] }],
    },
  },
  {
    // The Node wing (files, printers' transports, the SQLite job store, `labeldesk serve`, resvg) and the CLI
    // built from it: Node built-ins allowed, still no UI and nothing of main/ or renderer/.
    files: ['src/node/**', 'src/cli/**'],
    rules: { 'no-restricted-imports': ['error', { paths: uiLibs, patterns: noAppLayers }] },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer reaches main only through window.api.' }],
          patterns: [
            { group: ['**/main/**', '../main/*'], message: 'renderer never imports main/ (use src/ipc).' },
            { group: ['node:*'], message: 'The renderer runs sandboxed: no Node built-ins.' },
          ],
        },
      ],
    },
  },
  {
    // main/app and main/web.ts are the services behind the IPC contract, plain Node: Electron only in
    // main/electron (so web mode and the tests run them without it).
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Electron only in main/electron/.' }],
          patterns: [
            { group: ['**/renderer/**', '../renderer/*'], message: 'main never imports renderer/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['main/electron/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/renderer/**', '../renderer/*'], message: 'main never imports renderer/.' },
          ],
        },
      ],
    },
  },
);
