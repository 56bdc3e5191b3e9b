import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The API reference page: Scalar's standalone bundle renders the OpenAPI document. Everything
 * comes from this server (servers here are often offline, and a CDN script would run with the
 * page's authority): the bundle from node_modules, the document from `openapi.json`.
 */

/**
 * The bundle is served at `docs?asset=scalar.js`, on the docs path itself: only exact paths
 * are public (app.ts), and the asset must load without a credential as the page does.
 */
export const docsAssetParameter = 'asset';
export const scalarAssetName = 'scalar.js';

/**
 * What Scalar needs and nothing more. Its script and the document are same-origin ('self'),
 * without 'unsafe-eval' (it needs none) and without inline script (the page has none). Its
 * styles are injected at run time by several libraries, one of which takes no nonce, so
 * style-src needs 'unsafe-inline'; CSS cannot run script, and img/font/connect stay 'self',
 * so injected CSS cannot send anything anywhere either. `data:` carries its inline icons.
 */
export const docsPageHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export interface DocsAsset {
  text: string;
  etag: string;
  version: string;
}

/** Scalar's standalone bundle (4 MB), read once, with its ETag hashed once. */
export function loadScalarBundle(): DocsAsset {
  const require = createRequire(import.meta.url);
  // The package's entry is dist/index.js; the browser bundle sits beside it.
  const dist = dirname(require.resolve('@scalar/api-reference'));
  const manifest = JSON.parse(readFileSync(join(dist, '../package.json'), 'utf8')) as { version: string };
  const text = readFileSync(join(dist, 'browser/standalone.js'), 'utf8');
  return { text, etag: `"${hash('sha1', text, 'base64url')}"`, version: manifest.version };
}

/**
 * Scalar's settings: nothing fetched from elsewhere and no hosted features (no default fonts,
 * telemetry, AI agent, MCP generator or developer tools); each operation's first code sample
 * is its `@dms/sdk` call (`x-codeSamples`).
 */
const scalarConfiguration = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  persistAuth: false,
  documentDownloadType: 'json',
  defaultOpenAllTags: false,
  // Fields in the document's order (id first), not alphabetical.
  orderSchemaPropertiesBy: 'preserve',
  orderRequiredPropertiesFirst: false,
  authentication: { preferredSecurityScheme: 'basic' },
};

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

interface Operation {
  summary?: string;
}
/** The slice of an OpenAPI document the page's fallback shows. */
export interface DocsDocument {
  info: { title: string; version: string };
  paths?: Record<string, Partial<Record<string, Operation>>>;
}

const methods = ['get', 'post', 'put', 'delete'];

/** Without JavaScript (a text browser, a script disabled by policy) the page still lists every operation. */
function fallbackList(document: DocsDocument): string {
  const items = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    methods
      .filter((method) => item[method] !== undefined)
      .map((method) => `<li><code>${method.toUpperCase()} ${escapeAttribute(path)}</code> ${escapeAttribute(item[method]?.summary ?? '')}</li>`),
  );
  return `<ul>\n${items.join('\n')}\n</ul>`;
}

/**
 * The page: a configuration element Scalar reads (JSON in a `type="application/json"` script,
 * which no browser executes, so no inline script is allowed), the bundle, and a plain list of
 * the operations for a browser without JavaScript.
 */
export function renderDocsPage(document: DocsDocument, options: { documentUrl: string; bundleVersion: string }): string {
  const { title, version } = document.info;
  const bundle = `docs?${docsAssetParameter}=${scalarAssetName}&v=${encodeURIComponent(options.bundleVersion)}`;
  const documentUrl = escapeAttribute(options.documentUrl);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeAttribute(title)}</title></head>
<body><noscript><h1>${escapeAttribute(title)}</h1>
<p>API description ${escapeAttribute(version)}: <a href="${documentUrl}">${documentUrl}</a>. The interactive reference needs JavaScript.</p>
${fallbackList(document)}</noscript>
<script id="api-reference" type="application/json" data-url="${documentUrl}" data-configuration="${escapeAttribute(JSON.stringify(scalarConfiguration))}"></script>
<script src="${escapeAttribute(bundle)}"></script>
</body></html>`;
}
