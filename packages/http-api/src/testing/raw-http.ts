import { connect, type Socket } from 'node:net';

/** A TCP connection to a test server, and what became of it: for what fetch cannot send or see. */
export interface RawConnection {
  socket: Socket;
  /** Everything the server sent so far, as latin1 text. */
  received(): string;
  /** Resolves when the connection is closed: how (the server's FIN, or an error code such as ECONNRESET) and when. */
  closed: Promise<{ how: 'end' | string; at: number }>;
  isClosed(): boolean;
}

export interface RawConnectOptions {
  /** The client address to connect from, e.g. 127.0.0.2: another client, to a server on 127.0.0.1. */
  localAddress?: string;
}

/** Opens a connection; resolves once connected, or with a connection already closed if the server dropped it at once. */
export function rawConnect(port: number, options: RawConnectOptions = {}): Promise<RawConnection> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', ...(options.localAddress ? { localAddress: options.localAddress } : {}) });
    const chunks: Buffer[] = [];
    let closed = false;
    let how: string = 'end';
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (how = error.code ?? error.message));
    const connection: RawConnection = {
      socket,
      received: () => Buffer.concat(chunks).toString('latin1'),
      closed: new Promise((done) => socket.once('close', () => ((closed = true), done({ how, at: performance.now() })))),
      isClosed: () => closed,
    };
    socket.once('connect', () => resolve(connection));
    socket.once('close', () => resolve(connection));
  });
}

/** Sends `writes` on a new connection and waits until the server closes it (or `timeoutMs`, then it is closed here). */
export async function rawExchange(port: number, writes: ReadonlyArray<string | Buffer>, options: RawConnectOptions & { timeoutMs?: number } = {}) {
  const connection = await rawConnect(port, options);
  const started = performance.now();
  const timer = setTimeout(() => connection.socket.destroy(), options.timeoutMs ?? 10_000);
  for (const write of writes) if (!connection.isClosed()) connection.socket.write(write);
  const { how, at } = await connection.closed;
  clearTimeout(timer);
  return { text: connection.received(), how, ms: at - started, responses: parseResponses(connection.received()) };
}

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** The HTTP/1.1 answers in `text`, one after another (Content-Length bodies, as dms sends). */
export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd === -1) break;
    const [statusLine = '', ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const bodyStart = headEnd + 4;
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(bodyStart, bodyStart + length) });
    rest = rest.slice(bodyStart + length);
  }
  return responses;
}
