import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLookup3, decodeMnt, decodeReaddir4, decodeReaddirplus3, decodeRootLookup4 } from './nfs-readdir.js';
import { XdrError, XdrReader, XdrWriter } from './xdr.js';

/** What the connection lets out of a decoder: XdrError (turned into RpcError 'not_rpc'). */
function decodes(decode: () => unknown): void {
  try {
    decode();
  } catch (error) {
    expect(error instanceof XdrError, String(error)).toBe(true);
  }
}

const words = fc.array(fc.oneof(fc.constantFrom(0, 1, 2, 3, 9, 10, 15, 22, 24, 26, 0xffffffff, 0x7fffffff), fc.nat()), { maxLength: 400 });
const xdr = (values: readonly number[]) => values.reduce((writer, value) => writer.u32(value), new XdrWriter()).bytes();

describe('NFS listing decoders against hostile replies (fast-check)', () => {
  it('READDIRPLUS, READDIR, LOOKUP, MNT and the root lookup throw only XDR errors on arbitrary bytes', () => {
    const cookie = Buffer.alloc(8);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)),
          words.map(xdr),
        ),
        fc.nat(8),
        (bytes, depth) => {
          decodes(() => decodeReaddirplus3(new XdrReader(bytes), cookie));
          decodes(() => decodeReaddir4(new XdrReader(bytes), cookie));
          decodes(() => decodeLookup3(new XdrReader(bytes), Buffer.from('x')));
          decodes(() => decodeMnt(new XdrReader(bytes)));
          decodes(() => decodeRootLookup4(new XdrReader(bytes), depth));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('issue 42: a READDIR entry carrying attributes dms did not ask for is refused, not misread', () => {
    const reply = new XdrWriter().u32(0).string('dms').u32(2).u32(22).u32(0).u32(26).u32(0).u32(0).u32(0);
    reply
      .u32(1)
      .u32(0)
      .u32(3)
      .string('f')
      .u32(1)
      .u32(1 << 2)
      .opaque(Buffer.alloc(8)); // bit 2: fh_expire_type
    expect(() => decodeReaddir4(new XdrReader(reply.u32(0).u32(1).bytes()), Buffer.alloc(8))).toThrow(XdrError);
  });
});
