import { createHash } from 'node:crypto';

const stylesheet =
  'body{font:14px system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{padding:.3rem .6rem;border-bottom:1px solid #ddd;text-align:left}.m{font-weight:600}.get{color:#0a6}.post{color:#06c}.put{color:#a60}.delete{color:#c00}';

/**
 * Headers for the page: it needs nothing but its own inline stylesheet, allowed by hash
 * rather than 'unsafe-inline', so markup that ever slipped through the escaping could
 * neither run script, load or send anything, restyle the page, nor be framed.
 */
export const docsPageHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(stylesheet).digest('base64')}'`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

interface Operation {
  summary?: string;
  description?: string;
}
type PathItem = Partial<Record<Method, Operation>>;
/** The slice of an OpenAPI document the page shows. */
interface Document {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, PathItem>;
}

type Method = 'get' | 'post' | 'put' | 'delete';
const methods: ReadonlySet<string> = new Set<Method>(['get', 'post', 'put', 'delete']);

/** A path item's operations, skipping its other members (parameters, servers, x-…). */
function operationsOf(item: PathItem): Array<[string, Operation]> {
  return Object.entries(item).filter((entry): entry is [string, Operation] => methods.has(entry[0]) && entry[1] !== undefined);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** A self-contained API reference (no CDN assets: servers here are often offline). */
export function renderDocsPage(document: Document): string {
  const rows = Object.entries(document.paths ?? {})
    .flatMap(([path, item]) =>
      operationsOf(item).map(
        ([method, operation]) =>
          `<tr><td class="m ${method}">${method.toUpperCase()}</td><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(operation.summary ?? '')}</td><td>${escapeHtml((operation.description ?? '').replace(/`/g, ''))}</td></tr>`,
      ),
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(document.info.title)}</title>
<style>${stylesheet}</style>
</head><body><h1>${escapeHtml(document.info.title)}</h1><p>API description ${escapeHtml(document.info.version)}. ${escapeHtml(document.info.description ?? '')}
The machine-readable document is <a href="openapi.json">openapi.json</a>.</p>
<table><thead><tr><th>Method</th><th>Path</th><th>Summary</th><th>Scope</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`;
}
