import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, gunzipSync, inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTools } from '@dms/core/testing';
import { gzipInPieces } from './gzip-in-pieces.js';

/** Lines much like a scrape's: labels repeated, values varying. */
function exposition(lines: number): Buffer {
  const text: string[] = [];
  for (let i = 0; i < lines; i++)
    text.push(`dms_share_free_bytes{share_id="${i}",share="projects-${i % 977}",nas="filer-${i % 20}",pool="pool-${i % 50}"} ${(i * 7919) % 1e9}\n`);
  return Buffer.from(text.join(''));
}

/** The one gzip member `body` must be: a 10-byte header, one deflate stream to its end, the text's CRC-32 and length. */
function expectOneMember(body: Buffer, text: Buffer): void {
  expect([...body.subarray(0, 4)]).toEqual([0x1f, 0x8b, 0x08, 0x00]);
  // Raw inflate stops at the first final block: the whole text from it means the pieces are one stream.
  expect(inflateRawSync(body.subarray(10, body.length - 8)).equals(text)).toBe(true);
  expect(body.readUInt32LE(body.length - 8)).toBe(crc32(text) >>> 0);
  expect(body.readUInt32LE(body.length - 4)).toBe(text.length % 2 ** 32);
}

const tools = requireTools(['curl', 'gzip'], 'apt-get install -y curl gzip');

describe('gzip in pieces', () => {
  it('is one gzip member of the whole text whatever the piece size, empty and single-byte pieces included', async () => {
    const text = exposition(3000);
    for (const pieceBytes of [1, 1000, 32 * 1024, 65_537, text.length, text.length + 1]) {
      const piecesText = pieceBytes === 1 ? text.subarray(0, 300) : text;
      const body = await gzipInPieces(piecesText, { level: 2, pieceBytes });
      expectOneMember(body, piecesText);
      expect(gunzipSync(body).equals(piecesText)).toBe(true);
    }
    expectOneMember(await gzipInPieces(Buffer.alloc(0), { level: 1, pieceBytes: 1024 }), Buffer.alloc(0));
  });

  it('pieces primed with the 32 KiB before them compress as well as one stream, within 1 %', async () => {
    const text = exposition(40_000);
    const whole = await gzipInPieces(text, { level: 2, pieceBytes: text.length });
    const pieces = await gzipInPieces(text, { level: 2, pieceBytes: 256 * 1024 });
    expect(pieces.length).toBeLessThan(whole.length * 1.01);
  });

  describe.skipIf(!tools.ok)('read by other gzip readers', () => {
    const text = exposition(30_000);
    let server: Server;
    let url: string;

    beforeAll(async () => {
      const body = await gzipInPieces(text, { level: 2, pieceBytes: 64 * 1024 });
      server = createServer((_, res) => res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Type': 'text/plain' }).end(body));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('curl --compressed reads the whole text (it stops with an error at a second gzip member)', async () => {
      // Not spawnSync: the server answering curl runs on this process's event loop.
      const run = await promisify(execFile)(tools.paths['curl']!, ['--silent', '--show-error', '--fail', '--compressed', url], {
        encoding: 'buffer',
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(run.stderr.toString()).toBe('');
      expect(run.stdout.equals(text)).toBe(true);
    });

    it('gzip -t finds it sound and gzip -d gives the text', async () => {
      const body = await gzipInPieces(text, { level: 1, pieceBytes: 100_000 });
      const test = spawnSync(tools.paths['gzip']!, ['-t'], { input: body });
      expect(test.stderr.toString()).toBe('');
      expect(test.status).toBe(0);
      expect(spawnSync(tools.paths['gzip']!, ['-dc'], { input: body, maxBuffer: 64 * 1024 * 1024 }).stdout.equals(text)).toBe(true);
    });
  });
});
