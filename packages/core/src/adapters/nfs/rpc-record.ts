import { RpcError } from './rpc-error.js';

/**
 * Bounds of one ONC RPC reply record (RFC 5531 §11 record marking). Export lists and COMPOUND
 * replies are small; a peer near these is not an RPC server. Every byte counts, the 4-byte
 * fragment headers included, so zero-length fragments cannot be sent for free.
 */
export const maxRecordBytes = 4 << 20;
/** Real servers send a reply in one fragment, or a few of their send buffer's size (≥ 4 KiB). */
export const maxRecordFragments = 1024;

const lastFragment = 0x80000000;

/**
 * Reassembles one record from the chunks a socket delivers. Work per chunk is linear in the
 * chunk and holds no more than the counted bytes (each piece is copied out of its chunk, so a
 * 64 KiB chunk carrying a 1-byte fragment keeps 1 byte, not the chunk).
 */
export class RecordAssembler {
  readonly #header = Buffer.alloc(4);
  #headerFill = 0;
  /** Body bytes still to come in the current fragment; -1 while reading a header. */
  #remaining = -1;
  #last = false;
  #parts: Buffer[] = [];
  #counted = 0;
  #fragments = 0;
  #used = 0;

  /** `maxBytes`: a tighter cap than maxRecordBytes, for replies whose size the call bounds. */
  constructor(private readonly maxBytes = maxRecordBytes) {}

  /** Bytes this record has cost so far, fragment headers included (never above maxRecordBytes). */
  get counted(): number {
    return this.#counted;
  }

  get fragments(): number {
    return this.#fragments;
  }

  /** Bytes of the last chunk pushed that belong to the record it completed (the rest start the next one). */
  get used(): number {
    return this.#used;
  }

  /**
   * Takes the next chunk; answers the whole record once its last fragment is in (bytes after it
   * are ignored: one call, one reply), undefined while more is due. Throws RpcError('not_rpc')
   * as soon as the record would pass a bound.
   */
  push(chunk: Buffer): Buffer | undefined {
    let offset = 0;
    while (offset < chunk.length || this.#remaining === 0) {
      if (this.#remaining < 0) {
        const take = Math.min(4 - this.#headerFill, chunk.length - offset);
        chunk.copy(this.#header, this.#headerFill, offset, offset + take);
        this.#headerFill += take;
        offset += take;
        if (this.#headerFill < 4) return undefined;
        this.#startFragment(this.#header.readUInt32BE(0));
        continue;
      }
      const take = Math.min(this.#remaining, chunk.length - offset);
      if (take > 0) this.#parts.push(Buffer.from(chunk.subarray(offset, offset + take)));
      offset += take;
      this.#remaining -= take;
      if (this.#remaining > 0) return undefined;
      if (this.#last) {
        this.#used = offset;
        return this.#parts.length === 1 ? this.#parts[0] : Buffer.concat(this.#parts, this.#counted - 4 * this.#fragments);
      }
      this.#remaining = -1;
      this.#headerFill = 0;
    }
    return undefined;
  }

  #startFragment(header: number): void {
    const length = (header & ~lastFragment) >>> 0;
    // Checked before anything is taken in: what the record has cost stays within the bounds.
    if (this.#fragments + 1 > maxRecordFragments || this.#counted + 4 + length > this.maxBytes) throw new RpcError({ kind: 'not_rpc' });
    this.#fragments += 1;
    this.#counted += 4 + length;
    this.#last = (header & lastFragment) !== 0;
    this.#remaining = length;
  }
}
