import { constants, crc32, deflateRaw, type ZlibOptions } from 'node:zlib';

/** Deflate's window: each piece starts with the bytes before it as its dictionary, so it may refer back into them. */
const windowBytes = 32 * 1024;

function deflatePiece(input: Buffer, options: ZlibOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => deflateRaw(input, options, (error, output) => (error ? reject(error) : resolve(output))));
}

/** gzip's header: deflate, no name or time, unknown OS (RFC 1952). */
const header = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);

export interface GzipOptions {
  level: number;
  /** Input bytes a piece: pieces run at once on zlib's thread pool. */
  pieceBytes: number;
}

/**
 * `text` gzipped as one gzip member, its deflate stream made in pieces at once on zlib's thread
 * pool, as pigz makes it: every piece but the last ends on a sync flush (byte-aligned, not the
 * final block) and starts with the 32 KiB before it as its dictionary, so the pieces one after the
 * other are one deflate stream, nearly as small as one made in one go. One member, not one a
 * piece: curl --compressed and browsers stop at the end of a first member (Go's reader, which
 * Prometheus uses, would read them all). The CRC-32 of the whole text is taken here (~1.5 ms
 * for 8.5 MB). Each piece's output comes back in few large chunks: at zlib's default 16 KiB a
 * chunk, each a round trip between the pool and the event loop, gzip of 8.5 MB took ~3 times
 * its CPU (docs/decisions/185-metrics-scrape-cost.md).
 */
export async function gzipInPieces(text: Buffer, { level, pieceBytes }: GzipOptions): Promise<Buffer> {
  const pieces: Array<Promise<Buffer>> = [];
  for (let start = 0; start < text.length || start === 0; start += pieceBytes) {
    const end = Math.min(text.length, start + pieceBytes);
    const last = end === text.length;
    pieces.push(
      deflatePiece(text.subarray(start, end), {
        level,
        // An eighth of the piece: labelled series compress about 8 to 1, so about one chunk a piece.
        chunkSize: Math.max(16 * 1024, pieceBytes >> 3),
        ...(last ? {} : { finishFlush: constants.Z_SYNC_FLUSH }),
        ...(start > 0 ? { dictionary: text.subarray(Math.max(0, start - windowBytes), start) } : {}),
      }),
    );
    if (last) break;
  }
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc32(text) >>> 0, 0);
  // ISIZE: the text's length modulo 2^32.
  trailer.writeUInt32LE(text.length % 0x1_0000_0000, 4);
  // Every piece settled before answering, even when one failed: until then the pool reads `text`.
  const settled = await Promise.allSettled(pieces);
  const failed = settled.find((piece) => piece.status === 'rejected');
  if (failed) throw failed.reason;
  return Buffer.concat([header, ...settled.map((piece) => (piece as PromiseFulfilledResult<Buffer>).value), trailer]);
}
