import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How a bounded close of a listener went. */
export interface HttpCloseOutcome {
  /** Connections open when the close began. */
  open: number;
  /** Connections still open at the deadline, destroyed then (their requests went unanswered). */
  forced: number;
}

/** A close under way: `done` once every connection is gone; `force` destroys what remains now. */
export interface HttpClosing {
  done: Promise<HttpCloseOutcome>;
  force(): void;
}

interface Tracked {
  draining: boolean;
  sockets: Set<Socket>;
}

/**
 * The answer a connection is writing now, if any: Node keeps it on the socket while it is
 * attached (`_httpMessage`, set by assignSocket and cleared by detachSocket). Read only when a
 * close begins, so that no request pays for tracking what is in flight.
 */
function answerInFlight(socket: Socket): ServerResponse | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

const tracked = new WeakMap<Server, Tracked>();

/**
 * Keeps what a bounded close needs (issue 21 item 4): the open connections, so that once the
 * close begins each answer says `Connection: close`. Installed by listenHttp on every listener;
 * the cost is a set entry per connection, nothing per request.
 */
export function trackForGracefulClose(server: Server): void {
  const state: Tracked = { draining: false, sockets: new Set() };
  tracked.set(server, state);
  server.on('connection', (socket: Socket) => {
    state.sockets.add(socket);
    socket.once('close', () => state.sockets.delete(socket));
  });
}

/**
 * Closes a listener within `forceAfterMs`: no new connection is accepted, idle kept-alive
 * connections close at once, every request in flight (and any that still arrives on an open
 * connection) is answered with `Connection: close` and its connection closed after the answer
 * (the lingering close of lingering-close.ts, so the answer is not lost to a reset). What is
 * still open after `forceAfterMs` is destroyed. An answer that was sent is never taken back;
 * a request cut off at the deadline gets no answer, so its client cannot take it as done.
 */
export function closeGracefully(server: Server, forceAfterMs: number): HttpClosing {
  const state = tracked.get(server);
  const open = state?.sockets.size ?? 0;
  let forced = 0;
  const force = () => {
    if (state) {
      forced = Math.max(forced, state.sockets.size);
      for (const socket of state.sockets) socket.destroy();
    }
    server.closeAllConnections();
  };
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  if (state && !state.draining) {
    state.draining = true;
    // Node closed the idle connections in server.close(); a connection whose answer already
    // promised keep-alive is idle right after that answer, and closed then.
    const closeIdle = () => setImmediate(() => server.closeIdleConnections());
    for (const socket of state.sockets) {
      const response = answerInFlight(socket);
      if (!response) continue;
      if (response.headersSent) response.once('finish', closeIdle);
      else response.shouldKeepAlive = false;
    }
    // First among the request listeners: the app may write its answer before a later one runs.
    server.prependListener('request', (_request, response: ServerResponse) => {
      response.shouldKeepAlive = false;
    });
  }
  const timer = setTimeout(force, Math.max(0, forceAfterMs));
  const done = closed.then(() => {
    clearTimeout(timer);
    return { open, forced };
  });
  return { done, force };
}
