import type { ShareCapacity } from '../../ports/share-driver.js';

// smbclient ends every `ls` and `du` with "\t\t<total> blocks of size <bytes>. <avail> blocks available".
const blocksLine = /^\s*(\d{1,20}) blocks of size (\d{1,12})\. (\d{1,20}) blocks available\s*$/;

/**
 * The share's capacity from smbclient's summary line: the server's total and caller-available
 * allocation units (SMB2 FileFsFullSizeInformation, what the share's user may still write)
 * times the unit's size. Undefined for any other line.
 */
export function parseSmbBlocksLine(line: string): ShareCapacity | undefined {
  const found = blocksLine.exec(line);
  if (found === null) return undefined;
  const size = BigInt(found[2]!);
  return { capacity_bytes: Number(BigInt(found[1]!) * size), free_bytes: Number(BigInt(found[3]!) * size) };
}
