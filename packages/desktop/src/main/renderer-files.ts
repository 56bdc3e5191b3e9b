import { extname, join, normalize, sep } from 'node:path';

/** The scheme the window loads the console from: a standard, secure origin of its own. */
export const rendererScheme = 'app';
export const rendererOrigin = `${rendererScheme}://console`;

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/**
 * The file of the renderer bundle an `app://console/…` URL names, or undefined for another
 * host or a path outside the bundle: nothing else on disk is ever served to the page.
 */
export function rendererFile(rendererDir: string, url: string): { path: string; contentType: string } | undefined {
  const parsed = new URL(url);
  if (`${parsed.protocol}//${parsed.host}` !== rendererOrigin) return undefined;
  const relative = decodeURIComponent(parsed.pathname) === '/' ? 'index.html' : decodeURIComponent(parsed.pathname).slice(1);
  const path = normalize(join(rendererDir, relative));
  if (!path.startsWith(normalize(rendererDir) + sep)) return undefined;
  const contentType = contentTypes[extname(path)];
  return contentType ? { path, contentType } : undefined;
}
