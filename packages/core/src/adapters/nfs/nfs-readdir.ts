import { XdrError, XdrReader, XdrWriter } from './xdr.js';

/**
 * The listing calls of an NFS scan: v3 READDIRPLUS (RFC 1813 §3.3.17) and LOOKUP, v4.0
 * COMPOUND { PUTFH, READDIR } (RFC 7530 §16.24), and their decoders. A page is decoded into
 * counts and the subdirectories to enter, never into an object per file: a reply of a few
 * thousand files costs a few thousand reads of its buffer. Names are bounded (no server sends
 * more than 255 bytes), handles by their protocol's maximum.
 */

/** What dms asks a page to hold at most (maxcount); the connection refuses replies much larger. */
export const defaultPageBytes = 128 * 1024;
/** Longest name kept; real servers stop at 255 bytes (NAME_MAX). */
export const maxNameBytes = 1024;
const maxFh3 = 64;
const maxFh4 = 128;

/** A directory met in a page, to be listed in turn. */
export interface SubDirectory {
  name: Buffer;
  fh: Buffer;
  fileid: bigint;
}

/** A regular file as a listing told it: its size, times and, to count a hard-linked file once, its id and links. */
export interface ListedFile {
  name: Buffer;
  bytes: number;
  modifiedMs: number;
  /** Absent when the server does not tell it (a v4 server may leave time_access out). */
  accessedMs: number | null;
  fileid: bigint;
  links: number;
}

export interface DirPage {
  /** Regular files with one link and their apparent sizes. */
  files: number;
  bytes: number;
  /** Regular files with several links: the walk counts each file id once. */
  linked: ListedFile[];
  /** With `detailed`: every regular file with one link, for the scan's analytics. */
  listed: ListedFile[];
  /** Entries in the page, `.` and `..` left out. */
  entries: number;
  dirs: SubDirectory[];
  /** Names listed without the attributes a scan needs (v3 READDIRPLUS may leave them out): looked up one by one. */
  unresolved: Buffer[];
  /** Entries of the page the server could not read (v4 rdattr_error), by name. */
  unreadable: Buffer[];
  cookie: Buffer;
  verifier: Buffer;
  eof: boolean;
}

/** A listing call's outcome: its page, or the NFS status it failed with. */
export type PageOutcome = { status: 0; page: DirPage } | { status: number };

/** What one LOOKUP found: a file's size, a directory to enter, or something not counted. */
export type Looked =
  { status: 0; kind: 'file'; file: ListedFile } | { status: 0; kind: 'dir'; dir: SubDirectory } | { status: 0; kind: 'other' } | { status: number };

const fileTypes = { reg: 1, dir: 2 } as const;

function u64(reader: XdrReader): number {
  const high = reader.u32();
  return high * 2 ** 32 + reader.u32();
}

function u64Big(reader: XdrReader): bigint {
  const high = reader.u32();
  return (BigInt(high) << 32n) | BigInt(reader.u32());
}

/** An 8-byte cookie or verifier, copied out of the reply so the reply can go. */
function eightBytes(reader: XdrReader): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeUInt32BE(reader.u32(), 0);
  bytes.writeUInt32BE(reader.u32(), 4);
  return bytes;
}

function isDotOrDotDot(name: Buffer): boolean {
  return (name.length === 1 && name[0] === 0x2e) || (name.length === 2 && name[0] === 0x2e && name[1] === 0x2e);
}

function emptyPage(): DirPage {
  return {
    files: 0,
    bytes: 0,
    linked: [],
    listed: [],
    entries: 0,
    dirs: [],
    unresolved: [],
    unreadable: [],
    cookie: Buffer.alloc(8),
    verifier: Buffer.alloc(8),
    eof: false,
  };
}

// ---- NFS v3 ----

/** The status codes v3 and v4.0 share: NFS v4 kept v3's numbers. */
const commonStatus = {
  ok: 0,
  perm: 1,
  noent: 2,
  access: 13,
  notdir: 20,
  stale: 70,
  badCookie: 10003,
} as const;

export const nfs3 = {
  program: 100003,
  procedures: { lookup: 3, readdirplus: 17 },
  ...commonStatus,
  notSupp: 10004,
  tooSmall: 10005,
} as const;

/** nfstime3 / the seconds and nanoseconds of nfstime4, in milliseconds. */
function timeMs(seconds: number, nanoseconds: number): number {
  return seconds * 1000 + Math.floor(nanoseconds / 1e6);
}

/** fattr3: type, mode, nlink, uid, gid, size, used, rdev, fsid, fileid, atime, mtime, ctime. */
interface Attr3 {
  type: number;
  links: number;
  size: number;
  fileid: bigint;
  accessedMs: number;
  modifiedMs: number;
}

function postOpAttr3(reader: XdrReader): Attr3 | undefined {
  if (reader.u32() === 0) return undefined;
  const type = reader.u32();
  reader.skipWords(1); // mode
  const links = reader.u32();
  reader.skipWords(2); // uid, gid
  const size = u64(reader);
  reader.skipWords(6); // used, rdev, fsid
  const fileid = u64Big(reader);
  const accessedMs = timeMs(reader.u32(), reader.u32());
  const modifiedMs = timeMs(reader.u32(), reader.u32());
  reader.skipWords(2); // ctime
  return { type, links, size, fileid, accessedMs, modifiedMs };
}

/** A regular file of a page: single-link ones summed (and kept when `detailed`), linked ones kept for the walk. */
function addFile(page: DirPage, name: Buffer, file: Omit<ListedFile, 'name'>, detailed: boolean): void {
  if (file.links > 1) page.linked.push({ name: Buffer.from(name), ...file });
  else {
    page.files += 1;
    page.bytes += file.bytes;
    if (detailed) page.listed.push({ name: Buffer.from(name), ...file });
  }
}

function fileOf3(attr: Attr3): Omit<ListedFile, 'name'> {
  return { bytes: attr.size, modifiedMs: attr.modifiedMs, accessedMs: attr.accessedMs, fileid: attr.fileid, links: attr.links };
}

export function readdirplus3Args(dir: Buffer, cookie: Buffer, verifier: Buffer, pageBytes: number): Buffer {
  const writer = new XdrWriter().opaque(dir);
  for (const eight of [cookie, verifier]) writer.u32(eight.readUInt32BE(0)).u32(eight.readUInt32BE(4));
  // dircount bounds the names and cookies, maxcount the whole reply.
  return writer
    .u32(Math.floor(pageBytes / 4))
    .u32(pageBytes)
    .bytes();
}

/** `detailed`: list every file for the scan's analytics, not only sum them. */
export function decodeReaddirplus3(reply: XdrReader, previous: Buffer, detailed = false): PageOutcome {
  const status = reply.u32();
  postOpAttr3(reply); // the directory's attributes
  if (status !== nfs3.ok) return { status };
  const page = emptyPage();
  page.verifier = eightBytes(reply);
  page.cookie = previous;
  while (reply.u32() !== 0) {
    reply.skipWords(2); // fileid: the attributes carry it too
    const name = reply.opaque(maxNameBytes);
    page.cookie = eightBytes(reply);
    const attr = postOpAttr3(reply);
    const fh = reply.u32() !== 0 ? reply.opaque(maxFh3) : undefined;
    if (isDotOrDotDot(name)) continue;
    page.entries += 1;
    if (attr === undefined || (attr.type === fileTypes.dir && fh === undefined)) page.unresolved.push(Buffer.from(name));
    else if (attr.type === fileTypes.reg) addFile(page, name, fileOf3(attr), detailed);
    else if (attr.type === fileTypes.dir && fh !== undefined) page.dirs.push({ name: Buffer.from(name), fh: Buffer.from(fh), fileid: attr.fileid });
  }
  page.eof = reply.u32() !== 0;
  return { status: 0, page };
}

export function lookup3Args(dir: Buffer, name: Buffer): Buffer {
  return new XdrWriter().opaque(dir).opaque(name).bytes();
}

export function decodeLookup3(reply: XdrReader, name: Buffer): Looked {
  const status = reply.u32();
  if (status !== nfs3.ok) return { status };
  const fh = Buffer.from(reply.opaque(maxFh3));
  const attr = postOpAttr3(reply);
  if (attr === undefined) throw new XdrError('LOOKUP answered without attributes');
  if (attr.type === fileTypes.reg) return { status, kind: 'file', file: { name, ...fileOf3(attr) } };
  if (attr.type === fileTypes.dir) return { status, kind: 'dir', dir: { name, fh, fileid: attr.fileid } };
  return { status, kind: 'other' };
}

/** MOUNT v3 MNT: the export's root handle, or the mount status it failed with. */
export function decodeMnt(reply: XdrReader): { status: 0; fh: Buffer } | { status: number } {
  const status = reply.u32();
  if (status !== 0) return { status };
  return { status, fh: Buffer.from(reply.opaque(maxFh3)) };
}

// ---- NFS v4.0 ----

export const nfs4ops = { getattr: 9, getfh: 10, lookup: 15, putfh: 22, putrootfh: 24, readdir: 26 } as const;

export const nfs4status = {
  ...commonStatus,
  fhExpired: 10014,
  notSame: 10027,
} as const;

/**
 * Attributes a scan asks for, by bit: type, size, rdattr_error, filehandle, fileid in the first
 * bitmap word; numlinks (35) in the second, with time_access (47) and time_modify (53) when the
 * scan keeps analytics.
 */
const attr4 = { type: 1, size: 4, rdattrError: 11, filehandle: 19, fileid: 20 } as const;
const attr4word1 = { numlinks: 35 - 32, timeAccess: 47 - 32, timeModify: 53 - 32 } as const;
const askedMask = (1 << attr4.type) | (1 << attr4.size) | (1 << attr4.rdattrError) | (1 << attr4.filehandle) | (1 << attr4.fileid);
const askedLinks = 1 << attr4word1.numlinks;
const askedTimes = (1 << attr4word1.timeAccess) | (1 << attr4word1.timeModify);

interface Attr4 {
  type?: number;
  size?: number;
  error?: number;
  fh?: Buffer;
  fileid?: bigint;
  links?: number;
  accessedMs?: number;
  modifiedMs?: number;
}

/** nfstime4: signed 64-bit seconds and nanoseconds, in milliseconds. */
function time4(values: XdrReader): number {
  const high = values.u32();
  const low = values.u32();
  return timeMs((high >= 2 ** 31 ? high - 2 ** 32 : high) * 2 ** 32 + low, values.u32());
}

/** fattr4: a bitmap, then the values of its bits in order. Bits dms did not ask for cannot be read past. */
function fattr4(reader: XdrReader): Attr4 {
  const words = reader.u32();
  if (words > 8) throw new XdrError('attribute bitmap too long');
  let mask = 0;
  let mask1 = 0;
  for (let i = 0; i < words; i += 1) {
    const word = reader.u32();
    if (i === 0) mask = word;
    else if (i === 1) mask1 = word;
    else if (word !== 0) throw new XdrError('attributes not asked for');
  }
  if ((mask & ~askedMask) !== 0 || (mask1 & ~(askedLinks | askedTimes)) !== 0) throw new XdrError('attributes not asked for');
  const values = new XdrReader(reader.opaque(4096));
  const attr: Attr4 = {};
  if (mask & (1 << attr4.type)) attr.type = values.u32();
  if (mask & (1 << attr4.size)) attr.size = u64(values);
  if (mask & (1 << attr4.rdattrError)) attr.error = values.u32();
  if (mask & (1 << attr4.filehandle)) attr.fh = Buffer.from(values.opaque(maxFh4));
  if (mask & (1 << attr4.fileid)) attr.fileid = u64Big(values);
  if (mask1 & (1 << attr4word1.numlinks)) attr.links = values.u32();
  if (mask1 & (1 << attr4word1.timeAccess)) attr.accessedMs = time4(values);
  if (mask1 & (1 << attr4word1.timeModify)) attr.modifiedMs = time4(values);
  return attr;
}

function compoundHead(ops: number): XdrWriter {
  return new XdrWriter().string('dms').u32(0).u32(ops);
}

function bitmap(writer: XdrWriter, mask: number): XdrWriter {
  return writer.u32(1).u32(mask);
}

/** PUTROOTFH, LOOKUP each component, GETFH, GETATTR(type, fileid): the share's directory handle. */
export function rootLookup4Args(components: readonly string[]): Buffer {
  const writer = compoundHead(components.length + 3).u32(nfs4ops.putrootfh);
  for (const component of components) writer.u32(nfs4ops.lookup).string(component);
  writer.u32(nfs4ops.getfh).u32(nfs4ops.getattr);
  return bitmap(writer, (1 << attr4.type) | (1 << attr4.fileid)).bytes();
}

/** Skips the tag and walks results up to the first failure; answers its status, 0 when all passed. */
function compoundResults(reply: XdrReader, expected: readonly number[]): number {
  const status = reply.u32();
  reply.opaque(1024); // tag
  const count = reply.u32();
  if (count > expected.length || (status === 0 && count !== expected.length)) throw new XdrError('COMPOUND results do not match the call');
  return status;
}

export function decodeRootLookup4(reply: XdrReader, depth: number): { status: 0; fh: Buffer; fileid: bigint; type: number } | { status: number } {
  const ops = [nfs4ops.putrootfh, ...Array.from({ length: depth }, () => nfs4ops.lookup), nfs4ops.getfh, nfs4ops.getattr];
  const status = compoundResults(reply, ops);
  if (status !== 0) return { status };
  for (let i = 0; i < depth + 1; i += 1) {
    if (reply.u32() !== ops[i] || reply.u32() !== 0) throw new XdrError('COMPOUND results do not match the call');
  }
  if (reply.u32() !== nfs4ops.getfh || reply.u32() !== 0) throw new XdrError('COMPOUND results do not match the call');
  const fh = Buffer.from(reply.opaque(maxFh4));
  if (reply.u32() !== nfs4ops.getattr || reply.u32() !== 0) throw new XdrError('COMPOUND results do not match the call');
  const attr = fattr4(reply);
  if (attr.type === undefined || attr.fileid === undefined) throw new XdrError('GETATTR left out type or fileid');
  return { status, fh, fileid: attr.fileid, type: attr.type };
}

/** `detailed`: the files' times too, for the scan's analytics. */
export function readdir4Args(dir: Buffer, cookie: Buffer, verifier: Buffer, pageBytes: number, detailed = false): Buffer {
  const writer = compoundHead(2).u32(nfs4ops.putfh).opaque(dir).u32(nfs4ops.readdir);
  for (const eight of [cookie, verifier]) writer.u32(eight.readUInt32BE(0)).u32(eight.readUInt32BE(4));
  writer.u32(Math.floor(pageBytes / 4)).u32(pageBytes);
  return writer
    .u32(2)
    .u32(askedMask)
    .u32(askedLinks | (detailed ? askedTimes : 0))
    .bytes();
}

/** `detailed`: list every file for the scan's analytics, not only sum them. */
export function decodeReaddir4(reply: XdrReader, previous: Buffer, detailed = false): PageOutcome {
  const status = compoundResults(reply, [nfs4ops.putfh, nfs4ops.readdir]);
  if (status !== 0) return { status };
  if (reply.u32() !== nfs4ops.putfh || reply.u32() !== 0 || reply.u32() !== nfs4ops.readdir || reply.u32() !== 0) {
    throw new XdrError('COMPOUND results do not match the call');
  }
  const page = emptyPage();
  page.verifier = eightBytes(reply);
  page.cookie = previous;
  while (reply.u32() !== 0) {
    page.cookie = eightBytes(reply);
    const name = reply.opaque(maxNameBytes);
    const attr = fattr4(reply);
    if (isDotOrDotDot(name)) continue;
    page.entries += 1;
    if (attr.error !== undefined && attr.error !== 0) page.unreadable.push(Buffer.from(name));
    else if (attr.type === fileTypes.reg && attr.size !== undefined) {
      // A server that leaves numlinks or fileid out has its files counted by name, as before.
      const file = {
        bytes: attr.size,
        modifiedMs: attr.modifiedMs ?? 0,
        accessedMs: attr.accessedMs ?? null,
        fileid: attr.fileid ?? 0n,
        links: attr.fileid === undefined ? 1 : (attr.links ?? 1),
      };
      addFile(page, name, file, detailed);
    } else if (attr.type === fileTypes.dir && attr.fh !== undefined && attr.fileid !== undefined) {
      page.dirs.push({ name: Buffer.from(name), fh: attr.fh, fileid: attr.fileid });
    } else if (attr.type === undefined || (attr.type === fileTypes.reg && attr.size === undefined) || attr.type === fileTypes.dir) {
      page.unreadable.push(Buffer.from(name));
    }
  }
  page.eof = reply.u32() !== 0;
  return { status: 0, page };
}
