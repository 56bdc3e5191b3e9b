import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallOrigin } from '@dms/core';
import type { Core, OidcSignIn } from '@dms/core/runtime';

/** Opens a URL in the system browser (Electron's `shell.openExternal`); injected, so tests drive a browser of their own. */
export type OpenExternal = (url: string) => Promise<void>;

/** How long the console waits for the browser to come back (the pending sign-in itself lasts 10 minutes). */
export const loopbackWaitMs = 5 * 60_000;

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * The console's single sign-on (docs/decisions/177-oidc-sign-in.md): a loopback listener on
 * 127.0.0.1 at a port the system picks (RFC 8252 §7.3), the provider opened in the system
 * browser with `http://127.0.0.1:<port>/callback` as redirect URI, and the code exchanged by the
 * embedded core itself (PKCE, state and nonce as for REST). The listener answers one callback,
 * then closes; nothing but `/callback` is answered.
 */
export async function signInThroughBrowser(core: Core, openExternal: OpenExternal, origin: CallOrigin, waitMs = loopbackWaitMs): Promise<OidcSignIn> {
  let answered: (params: URLSearchParams, res: ServerResponse) => void = () => {};
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback') return void res.writeHead(404).end();
    answered(url.searchParams, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  let timer: NodeJS.Timeout | undefined;
  try {
    const authorizationUrl = await core.oidc.start(redirectUri);
    const callback = new Promise<{ params: URLSearchParams; res: ServerResponse }>((resolve, reject) => {
      answered = (params, res) => resolve({ params, res });
      timer = setTimeout(() => reject(new Error('the browser did not come back from the provider within 5 minutes; sign in again')), waitMs);
    });
    // Only a web page goes to the system browser, whatever the provider's discovery document said.
    if (authorizationUrl.protocol !== 'https:' && authorizationUrl.protocol !== 'http:') throw new Error('the provider’s sign-in page is not a web address');
    await openExternal(authorizationUrl.href);
    const { params, res } = await callback;
    try {
      const signedIn = await core.oidc.finish(params, origin);
      res
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        .end(page('Signed in to the dms console', 'You may close this tab and go back to the console.'));
      return signedIn;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      res.writeHead(401, { 'Content-Type': 'text/html; charset=utf-8' }).end(page('Sign-in refused', escapeHtml(message)));
      throw error;
    }
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  }
}
