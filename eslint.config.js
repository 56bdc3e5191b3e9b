// Lint is kept to the package boundaries (docs/architecture.md): type errors are `typecheck`'s job, and
// style rules would flag the code base en masse for nothing.
import { readFileSync, readdirSync } from 'node:fs';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Subpaths the core declares in its package.json "exports": the only doors a host may use. */
const coreManifest = JSON.parse(readFileSync(new URL('./packages/core/package.json', import.meta.url), 'utf8'));
const coreSubpaths = Object.keys(coreManifest.exports)
  .filter((key) => key !== '.')
  .map((key) => key.slice('./'.length));

/** Folder names under packages/, so a relative path into any sibling package is caught. */
const packageFolders = readdirSync(new URL('./packages/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const anyOf = (names) => names.map(escapeRegex).join('|');

// `@dms/core/<anything but a declared subpath>`: src/, dist/, package.json, an undeclared folder.
const coreInternals = `^@dms/core/(?!(?:${anyOf(coreSubpaths)})$)`;
// `../../core/src/x.js`, `../../../packages/core/x.js`, `/abs/packages/core/x.js`: around the exports map.
const intoAnotherPackage = `^(?:\\./)?(?:\\.\\./)+(?:packages/)?(?:${anyOf(packageFolders)})(?:/|$)|(?:^|/)packages/(?:${anyOf(packageFolders)})(?:/|$)`;

// What a browser bundle cannot load: any core subpath (the service, adapters), the REST host, Node's modules.
const rendererOutOfBounds = '^(?:@dms/core/|@dms/http-api(?:/|$)|node:)';
const rendererBoundaryMessage = 'The renderer imports the pure contract from @dms/core only; it reaches the service through tRPC (api.<router>.<procedure>).';

// The CLI (packages/cli) reaches the REST host through its public entry only, for `dms serve` and the
// environment it shares with it (docs/decisions/136-cli-package.md).
const httpApiInternals = '^@dms/http-api/';
const cliBoundaryMessage = 'The CLI imports @dms/http-api by its public entry only (startServer, readConfig, ...); export what you need there.';

const hostBoundaryMessage =
  'A host reaches the core through its declared subpaths only (@dms/core, @dms/core/<subpath> from packages/core/package.json "exports"); export what you need there instead of importing core internals.';

/**
 * The same regex on `import()` and on `typeof import('…')`, which no-restricted-imports does not
 * see. esquery ends a regex at the first `/`, escaped or not, so slashes are written as \x2F.
 */
const restrictedSpecifierSyntax = (regex, message) => {
  const value = `/${regex.replaceAll('/', '\\x2F')}/`;
  return [
    { selector: `ImportExpression > Literal.source[value=${value}]`, message },
    { selector: `TSImportType Literal[value=${value}]`, message },
  ];
};

const intoAnotherPackageMessage = 'Import another package by its name and declared exports, never by a relative or absolute path into its folder.';

/**
 * A host's import boundary, one list of (regex, message) applied to static imports and to
 * `import()` / `typeof import('…')` alike: the core's internals, paths into another package, and
 * what the host itself may not reach (`more`).
 */
const hostBoundary = (...more) => {
  const boundaries = [[coreInternals, hostBoundaryMessage], [intoAnotherPackage, intoAnotherPackageMessage], ...more];
  return {
    'no-restricted-imports': ['error', { patterns: boundaries.map(([regex, message]) => ({ regex, message })) }],
    'no-restricted-syntax': ['error', ...boundaries.flatMap(([regex, message]) => restrictedSpecifierSyntax(regex, message))],
  };
};

export default defineConfig([
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/coverage/**'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
    languageOptions: { parser: tseslint.parser, sourceType: 'module' },
  },
  {
    // Hosts: every package but the core (http-api, cli, desktop, sdk).
    files: ['packages/**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    ignores: ['packages/core/**'],
    rules: hostBoundary(),
  },
  {
    // The console's renderer runs in a sandboxed browser window: the pure contract on @dms/core
    // only, never the running service, an adapter or @dms/http-api (they load Node modules).
    files: ['packages/desktop/src/renderer/**/*.{ts,tsx}'],
    rules: hostBoundary([rendererOutOfBounds, rendererBoundaryMessage]),
  },
  {
    // The command line: the core's declared subpaths and @dms/http-api's public entry, nothing deeper.
    files: ['packages/cli/**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    rules: hostBoundary([httpApiInternals, cliBoundaryMessage]),
  },
  {
    // The core knows nothing of its hosts or their frameworks (docs/architecture.md): adapters depend on it, never the reverse.
    // @dms/native-walk is no host: a C addon the local driver loads (decision 193).
    files: ['packages/core/**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?:@dms/(?!core(?:/|$)|native-walk$)|hono$|@hono/|@trpc/|electron$|react$|react-dom(?:/|$))',
              message: 'The core must not depend on a host package or its framework (Hono, tRPC, Electron, React).',
            },
            { regex: intoAnotherPackage, message: 'The core must not reach into another package by path.' },
          ],
        },
      ],
    },
  },
]);
