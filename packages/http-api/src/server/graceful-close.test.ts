import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { parseResponses, rawConnect, type RawConnection } from '../testing/raw-http.js';
import { closeGracefully } from './graceful-close.js';
import { listenHttp } from './listen.js';

/** Resolves when `condition` holds, checking every 10 ms; fails after `withinMs`. */
async function until(condition: () => boolean, withinMs = 5_000): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;

describe('closeGracefully: a bounded drain of a listener (issue 21 item 4)', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.closeAllConnections();
  });

  /** A listener whose answers to /held/NAME wait until the test releases NAME. */
  async function listen() {
    const held = new Map<string, () => void>();
    const streams = new Map<string, ReadableStreamDefaultController<Uint8Array>>();
    const server = (await listenHttp(
      async (request) => {
        const path = new URL(request.url).pathname;
        if (path.startsWith('/held/')) {
          await new Promise<void>((resolve) => held.set(path.slice(6), resolve));
          return new Response('late answer');
        }
        if (path.startsWith('/stream/')) {
          return new Response(new ReadableStream({ start: (controller) => void streams.set(path.slice(8), controller) }));
        }
        return new Response('at once');
      },
      '127.0.0.1',
      0,
    )) as Server;
    servers.push(server);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return { server, port, held, streams };
  }

  it('item 21.4: an idle kept-alive connection closes at once, a request in flight is answered with Connection: close, a new connection is refused, and what is still open at the deadline is destroyed', async () => {
    const { server, port, held } = await listen();
    const idle = await rawConnect(port);
    idle.socket.write(get('/fast'));
    await until(() => parseResponses(idle.received()).length === 1);
    expect(parseResponses(idle.received())[0]!.headers['connection']).toBe('keep-alive');

    const answered = await rawConnect(port);
    answered.socket.write(get('/held/answered'));
    const cutOff = await rawConnect(port);
    cutOff.socket.write(get('/held/never'));
    await until(() => held.has('answered') && held.has('never'));

    const started = performance.now();
    const closing = closeGracefully(server, 600);
    const idleClosed = await idle.closed;
    expect(idleClosed.at - started).toBeLessThan(300);
    const refused = await rawConnect(port);
    await refused.closed;
    expect(refused.received()).toBe('');

    held.get('answered')!();
    const { how } = await answered.closed;
    expect(how).toBe('end');
    const [answer] = parseResponses(answered.received());
    expect([answer?.status, answer?.headers['connection'], answer?.body]).toEqual([200, 'close', 'late answer']);

    const outcome = await closing.done;
    const cut = await cutOff.closed;
    expect(cut.at - started).toBeGreaterThanOrEqual(550);
    expect(cut.at - started).toBeLessThan(1_500);
    expect(cutOff.received()).toBe('');
    expect(outcome).toEqual({ open: 3, forced: 1 });
  });

  it('item 21.4: a connection whose answer had already promised keep-alive closes once that answer ends', async () => {
    const { server, port, streams } = await listen();
    const streaming: RawConnection = await rawConnect(port);
    streaming.socket.write(get('/stream/one'));
    await until(() => streams.has('one') && streaming.received().includes('\r\n\r\n'));
    expect(streaming.received()).toMatch(/connection: keep-alive/i);

    const closing = closeGracefully(server, 5_000);
    const controller = streams.get('one')!;
    controller.enqueue(new TextEncoder().encode('the rest'));
    const ended = performance.now();
    controller.close();
    const { how, at } = await streaming.closed;
    expect(how).toBe('end');
    // Not the keep-alive timeout (5 s) later.
    expect(at - ended).toBeLessThan(1_000);
    expect(streaming.received()).toContain('the rest');
    expect(await closing.done).toEqual({ open: 1, forced: 0 });
  });
});
