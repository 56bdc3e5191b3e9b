import { randomUUID } from 'node:crypto';
import { maxHeaderSize as defaultMaxHeaderSize, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ModelError } from '@dms/core';
import { isLingering, lingeringClose } from './lingering-close.js';

/** What Node's HTTP parser refused, as the log line and the answer tell it. */
export interface ParserRefusal {
  status: number;
  requestId: string;
  /** Node's error code: HPE_HEADER_OVERFLOW, ERR_HTTP_REQUEST_TIMEOUT, HPE_INVALID_METHOD, … */
  code: string;
}

interface ParserError extends Error {
  code?: string;
  reason?: string;
  /** The chunk the parser was reading when it refused, and how far it got. */
  rawPacket?: Buffer;
  bytesParsed?: number;
}

/** The client is gone or went quiet mid-request: nobody would read an answer. */
const unanswerable = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'HPE_INVALID_EOF_STATE']);
const requestStart = /^[A-Z]+ /;

/**
 * Whether a header overflow struck in the request line (a URL over the limit: 414) rather
 * than in the headers (431). Node says "header overflow" for both; the refused chunk tells
 * them apart when it holds the start of that request's line and no line break after it up
 * to the point of refusal. A request line split over several reads arrives in pieces that
 * do not show where they belong: those are 431.
 */
export function overflowInRequestLine(rawPacket: Buffer | undefined, bytesParsed: number | undefined): boolean {
  if (!rawPacket) return false;
  const parsed = rawPacket.subarray(0, bytesParsed ?? rawPacket.length);
  const lineBreak = parsed.lastIndexOf(0x0a);
  if (lineBreak !== -1) {
    // A line break before the refusal: past the request line, unless the line after it starts
    // a pipelined request (the earlier one ended with an empty line).
    const before = parsed.subarray(0, lineBreak).toString('latin1');
    if (!before.endsWith('\r\n\r') && !before.endsWith('\n')) return false;
  }
  return requestStart.test(parsed.subarray(lineBreak + 1, lineBreak + 21).toString('latin1'));
}

interface Refusal {
  status: number;
  body: ModelError;
}

function refusalOf(error: ParserError, server: Server): Refusal | undefined {
  const code = error.code ?? '';
  if (unanswerable.has(code)) return undefined;
  // Set by the maxHeaderSize option (none given here: Node's, or --max-http-header-size).
  const headLimit = (server as Server & { maxHeaderSize?: number }).maxHeaderSize ?? defaultMaxHeaderSize;
  const fits = `the request line and headers may hold ${headLimit} bytes`;
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return overflowInRequestLine(error.rawPacket, error.bytesParsed)
        ? { status: 414, body: { details: { url: [{ error: 'too_long', count: headLimit }] }, messages: [`request URL is too long: ${fits}`] } }
        : { status: 431, body: { details: { headers: [{ error: 'too_long', count: headLimit }] }, messages: [`request headers are too large: ${fits}`] } };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, body: { details: { body: [{ error: 'too_long' }] }, messages: ['chunk extensions of the request body are too large'] } };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        body: {
          details: {},
          messages: [`the request did not arrive in time: its headers may take ${server.headersTimeout} ms, the whole request ${server.requestTimeout} ms`],
        },
      };
    default:
      // llhttp's reason is its own fixed text ("Invalid method encountered"), never the client's bytes.
      return { status: 400, body: { details: { request: [{ error: 'invalid' }] }, messages: [`malformed HTTP request: ${error.reason ?? code}`] } };
  }
}

function rawAnswer(refusal: Refusal, requestId: string): string {
  const body = JSON.stringify(refusal.body);
  return (
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-Id: ${requestId}\r\n` +
    'X-Content-Type-Options: nosniff\r\n' +
    `Date: ${new Date().toUTCString()}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** The answer Node is still writing on this socket, for a request before the refused one. */
function answerInFlight(socket: Socket): ServerResponse | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

/**
 * Answers what Node's HTTP parser refuses (issue 21 item 7) as the app answers its own
 * errors: a model_error body and an X-Request-Id, then Connection: close, where the socket
 * still takes an answer (not after the client left). Node's own answers had neither body nor
 * id, said 431 for an over-long URL, and cut off the answer to an earlier request of the same
 * connection still being written; that answer now goes out first.
 */
export function answerParserRefusals(server: Server, onRefusal: (refusal: ParserRefusal) => void = () => {}): void {
  const refused = new WeakSet<Socket>();
  server.on('clientError', (error: ParserError, socket: Socket) => {
    // A refusing parser refuses again on every later read, and at the request timeout.
    if (refused.has(socket)) return;
    const refusal = socket.destroyed || isLingering(socket) || !socket.writable ? undefined : refusalOf(error, server);
    if (!refusal) {
      socket.destroy();
      return;
    }
    refused.add(socket);
    const answer = () => {
      const inFlight = answerInFlight(socket);
      // Node gives the socket to the next answer in its 'finish' handler, which runs before this one.
      if (inFlight) return void inFlight.once('finish', answer);
      // An earlier answer said Connection: close: the connection is closing already.
      if (isLingering(socket)) return;
      if (socket.destroyed || !socket.writable) return void socket.destroy();
      const requestId = randomUUID();
      socket.write(rawAnswer(refusal, requestId));
      onRefusal({ status: refusal.status, requestId, code: error.code ?? 'unknown' });
      lingeringClose(socket);
    };
    answer();
  });
}
