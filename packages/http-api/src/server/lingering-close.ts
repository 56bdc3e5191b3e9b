import { Socket } from 'node:net';

/** Longest a closing connection keeps reading what its client still sends, and how much. */
export const lingerMs = 2_000;
export const lingerBytes = 4 * 1024 * 1024;

const lingering = new WeakSet<Socket>();

/**
 * Closes a connection after its last answer without losing that answer (issue 21 item 6).
 * Closing a socket whose client is still sending (the rest of a refused body, a next
 * request) makes the kernel answer with a reset, and a reset can discard our answer on the
 * client's side before it is read. So: send FIN after the answer, stop feeding the HTTP
 * parser (no request after the last answer is read, so none is applied unanswered), read
 * and drop what still comes, and destroy once the client closes, or after `lingerMs` or
 * `lingerBytes`, whichever is first.
 */
export function lingeringClose(socket: Socket): void {
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.add(socket);
  // A client that has closed its side sends nothing more: close once the answer is out.
  if (!socket.readable || socket.readableEnded) {
    Socket.prototype.destroySoon.call(socket);
    return;
  }
  socket.end();
  // The server's own listener feeds its parser; a listener of ours instead makes Node stop
  // parsing the socket in C++ and hand its bytes to JavaScript (its wrapper of socket.on).
  socket.removeAllListeners('data');
  let read = 0;
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > lingerBytes) socket.destroy();
  });
  socket.once('end', () => socket.destroy());
  socket.once('close', () => clearTimeout(timer));
  socket.resume();
}

/** Whether the socket is closing through lingeringClose: nothing more may be written to it. */
export function isLingering(socket: Socket): boolean {
  return lingering.has(socket);
}

/**
 * Makes Node's own close after a `Connection: close` answer (its destroySoon, called once the
 * answer is written whole) a lingering one, for this socket. A later call, as @hono/node-server
 * makes when a refused body is still unread after 500 ms, leaves the lingering to its bounds.
 */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => lingeringClose(socket);
}
