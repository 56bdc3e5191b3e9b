import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RpcError } from './rpc-error.js';
import { RecordAssembler, maxRecordBytes, maxRecordFragments } from './rpc-record.js';

const lastBit = 0x80000000;

function header(length: number, last: boolean): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE((length | (last ? lastBit : 0)) >>> 0);
  return bytes;
}

/** Cuts `bytes` at the given offsets (taken modulo its length), as a socket may deliver it. */
function split(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const at = [...new Set(cuts.map((cut) => (bytes.length === 0 ? 0 : cut % bytes.length)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const cut of at) {
    chunks.push(bytes.subarray(from, cut));
    from = cut;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

type Outcome = { record: Buffer } | { refused: true } | { more: true };

/** Feeds chunks until the assembler answers; checks its bounds after every chunk. */
function feed(chunks: readonly Buffer[]): Outcome {
  const assembler = new RecordAssembler();
  for (const chunk of chunks) {
    let record: Buffer | undefined;
    try {
      record = assembler.push(chunk);
    } catch (error) {
      expect(error).toBeInstanceOf(RpcError);
      expect((error as RpcError).failure).toEqual({ kind: 'not_rpc' });
      return { refused: true };
    } finally {
      expect(assembler.counted).toBeLessThanOrEqual(maxRecordBytes);
      expect(assembler.fragments).toBeLessThanOrEqual(maxRecordFragments);
    }
    if (record !== undefined) {
      expect(record.length).toBeLessThanOrEqual(maxRecordBytes);
      return { record };
    }
  }
  return { more: true };
}

interface Fragment {
  length: number;
  last: boolean;
}

/** What the record marking standard says of a fragment sequence, under dms's bounds. */
function expected(fragments: readonly Fragment[], body: (index: number, length: number) => Buffer): Outcome {
  let counted = 0;
  const parts: Buffer[] = [];
  for (const [index, fragment] of fragments.entries()) {
    counted += 4 + fragment.length;
    if (index + 1 > maxRecordFragments || counted > maxRecordBytes) return { refused: true };
    parts.push(body(index, fragment.length));
    if (fragment.last) return { record: Buffer.concat(parts) };
  }
  return { more: true };
}

const bodyOf = (index: number, length: number) => Buffer.alloc(length, index % 251);

/** The wire bytes of a sequence; a header announcing more than the cap is sent without its body. */
function wire(fragments: readonly Fragment[]): Buffer {
  return Buffer.concat(
    fragments.flatMap((f, index) => (f.length > maxRecordBytes ? [header(f.length, f.last)] : [header(f.length, f.last), bodyOf(index, f.length)])),
  );
}

const fragment = fc.record({
  length: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 64 }) },
    { weight: 1, arbitrary: fc.constantFrom(0, 0x7fffffff, maxRecordBytes - 4, maxRecordBytes + 1) },
  ),
  last: fc.boolean(),
});

describe('ONC RPC record reassembly against hostile peers (fast-check)', () => {
  it('finding 20.5: zero-length non-final fragments count against the bounds (a flood is refused after 1024 of them)', () => {
    const flood = Buffer.alloc(64 * 1024); // 16,384 headers of zero-length, non-final fragments
    const assembler = new RecordAssembler();
    expect(() => assembler.push(flood)).toThrow(RpcError);
    expect(assembler.fragments).toBe(maxRecordFragments);
    expect(assembler.counted).toBe(4 * maxRecordFragments);
  });

  it('finding 20.5: header bytes count, so a record of fragments summing to the cap is refused', () => {
    const chunk = Buffer.concat([header(maxRecordBytes - 4, false), Buffer.alloc(maxRecordBytes - 4), header(0, true)]);
    expect(feed([chunk])).toEqual({ refused: true });
  });

  it('reassembles a record in fragments split anywhere', () => {
    const bytes = Buffer.concat([header(3, false), Buffer.from('abc'), header(0, false), header(2, true), Buffer.from('de'), Buffer.from('trailing')]);
    for (let cut = 0; cut <= bytes.length; cut += 1) {
      expect(feed([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual({ record: Buffer.from('abcde') });
    }
  });

  it('arbitrary bytes in arbitrary chunks: only RpcError, never beyond the bounds', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 4096 }), { maxLength: 40 }), (chunks) => {
        feed(chunks.map((chunk) => Buffer.from(chunk)));
      }),
      { numRuns: 500 },
    );
  });

  it('arbitrary fragment sequences, huge lengths and floods of empty fragments: the answer the standard and the bounds give', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 * maxRecordFragments }),
        fc.array(fragment, { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (empties, tail, cuts) => {
          const fragments: Fragment[] = [...Array.from({ length: empties }, () => ({ length: 0, last: false })), ...tail];
          const want = expected(fragments, bodyOf);
          expect(feed(split(wire(fragments), cuts))).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });
});
