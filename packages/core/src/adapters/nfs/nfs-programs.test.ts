import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReply } from './rpc-call.js';
import { RpcError } from './rpc-error.js';
import { decodeExports, decodeLookup, maxExports } from './nfs-programs.js';
import { XdrError, XdrReader, XdrWriter } from './xdr.js';

/** What rpcCall lets out of a decoder: RpcError, or XdrError (which it turns into RpcError). */
function decodes(decode: () => unknown): void {
  try {
    decode();
  } catch (error) {
    expect(error instanceof RpcError || error instanceof XdrError, String(error)).toBe(true);
  }
}

/** XDR words drawn mostly from the values list discriminators and lengths take. */
const words = fc.array(fc.oneof(fc.constantFrom(0, 1, 2, 4, 0xffffffff, 0x7fffffff), fc.nat()), { maxLength: 300 });
const xdr = (values: readonly number[]) => values.reduce((writer, value) => writer.u32(value), new XdrWriter()).bytes();

describe('NFS reply decoders against hostile replies (fast-check)', () => {
  it('parseReply, the export list and the COMPOUND lookup throw only XDR or RPC errors on arbitrary bytes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)),
          words.map(xdr),
        ),
        fc.nat(20),
        (bytes, depth) => {
          decodes(() => parseReply(bytes.length >= 4 ? bytes.readUInt32BE(0) : 1, bytes));
          decodes(() => decodeExports(new XdrReader(bytes)));
          decodes(() => decodeLookup(new XdrReader(bytes), depth));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('finding 20.5: a long export list is bounded by count, a deep group list is passed over', () => {
    const long = new XdrWriter();
    for (let i = 0; i <= maxExports; i += 1) long.u32(1).string('/e').u32(0);
    expect(() => decodeExports(new XdrReader(long.u32(0).bytes()))).toThrow(RpcError);

    const deep = new XdrWriter().u32(1).string('/x');
    for (let i = 0; i < 100_000; i += 1) deep.u32(1).string('group');
    expect(decodeExports(new XdrReader(deep.u32(0).u32(0).bytes()))).toEqual(['/x']);
  });

  it('finding 20.5: an attribute bitmap claiming 2^32-1 words is refused without walking it', () => {
    const reply = new XdrWriter().u32(0).string('dms').u32(2).u32(24).u32(0).u32(9).u32(0).u32(0xffffffff).bytes();
    expect(() => decodeLookup(new XdrReader(reply), 0)).toThrow(XdrError);
  });
});
