// `npm run lint:deps` (part of `npm run lint`): the layering of ARCHITECTURE.md and no import cycle anywhere,
// type-only imports included (a cycle of types is still two modules that cannot be understood apart).
// eslint.config.js keeps the package boundaries (node:* only in the Node wing and the CLI, electron only in
// main/electron, no UI library in src/).

/**
 * src/'s pure layers, bottom first: a module may import its own folder and the layers below it, never one
 * above. Each line is one rank (folders on one line do not import each other).
 */
const LAYERS = [
  ['base', 'units'],
  ['model'],
  ['resolve'],
  ['layout'],
  ['render'],
  ['zpl'],
  ['outputs'],
  ['printers'],
  ['label-api'],
  ['engine'],
  ['backends'],
  ['jobs'],
  ['ipc'],
  ['sdk'],
];

const above = (rank) => LAYERS.slice(rank + 1).flat();
const sameRank = (rank, name) => LAYERS[rank].filter((other) => other !== name);
const folders = (names) => `^src/(${names.join('|')})/`;

const layering = LAYERS.flatMap((names, rank) =>
  names.flatMap((name) => {
    const forbidden = [...above(rank), ...sameRank(rank, name), 'node', 'cli'];
    return [
      {
        name: `layer-${name}`,
        severity: 'error',
        comment: `src/${name}/ sits below ${forbidden.join(', ')} (ARCHITECTURE.md, "Layers"): move the shared piece down.`,
        from: { path: `^src/${name}/` },
        to: { path: folders(forbidden) },
      },
    ];
  }),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: move what both sides need into a module of its own.',
      from: {},
      to: { circular: true },
    },
    ...layering,
    {
      name: 'node-wing-above-cli',
      severity: 'error',
      comment: 'src/node/ is the Node wing the CLI and the app are built from; it never imports the CLI.',
      from: { path: '^src/node/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'src-below-main-and-renderer',
      severity: 'error',
      comment: 'src/ is used by main/ and renderer/, never the other way.',
      from: { path: '^src/' },
      to: { path: '^(main|renderer)/' },
    },
    {
      name: 'main-not-renderer',
      severity: 'error',
      comment: 'main/ and renderer/ meet only through the IPC contract (src/ipc).',
      from: { path: '^main/' },
      to: { path: '^renderer/' },
    },
    {
      name: 'renderer-not-main',
      severity: 'error',
      comment: 'The renderer reaches main only through the IPC contract (src/ipc), and never the Node wing.',
      from: { path: '^renderer/' },
      to: { path: '^(main/|src/node/|src/cli/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|out|assets|test-results)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
