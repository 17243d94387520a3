// ESLint: typescript-eslint plus the import boundaries of ARCHITECTURE.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = {
  group: ['node:*'],
  message:
    'src/ is pure: Node built-ins only in src/node/, src/cli/, src/engine/server/ and src/render/raster/.',
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
    files: ['src/**/*.ts'],
    ignores: ['src/node/**', 'src/cli/**', 'src/render/raster/**', 'src/engine/server/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: uiLibs, patterns: [nodeBuiltins, ...noAppLayers] }],
    },
  },
  {
    // src/engine/server/: the HTTP face of the engine (`labeldesk serve`: Fastify, files, scrypt) is Node by
    // nature; the operations it serves stay pure in src/engine/.
    files: ['src/node/**', 'src/render/raster/**', 'src/engine/server/**'],
    rules: { 'no-restricted-imports': ['error', { paths: uiLibs, patterns: noAppLayers }] },
  },
  {
    // src/cli is a composition root: it wires the concrete printer transports and discovery of main/printers
    // into commands (`labeldesk printers`, `status`) and the SQLite job store of main/jobs into `labeldesk jobs`.
    // Only those two; the rest of main/ stays off limits.
    files: ['src/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: uiLibs,
          patterns: [
            {
              regex: '(^|/)main/(?!printers/|jobs/)',
              message:
                'src/cli may import main/printers and main/jobs (composition root), nothing else of main/.',
            },
            noAppLayers[1],
          ],
        },
      ],
    },
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
    files: ['main/**/*.ts'],
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
