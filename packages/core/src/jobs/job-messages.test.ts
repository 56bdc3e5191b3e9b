import { describe, expect, it } from 'vitest';
import { describeJobFailure, formatBytes, scanSummary } from './job-messages.js';

describe('job messages', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [999, '999 bytes'],
    [1000, '1.0 kB'],
    [5_600_000, '5.6 MB'],
    [999_960, '1.0 MB'],
    [5_000_000_000, '5.0 GB'],
  ])('formats %i bytes as %s', (bytes, shown) => {
    expect(formatBytes(bytes)).toBe(shown);
  });

  it('says what a scan counted, with thousands separated', () => {
    expect(scanSummary({ file_count: 1234, file_size_sum: 5_600_000 })).toBe('counted 1,234 files, 5.6 MB');
    expect(scanSummary({ file_count: 1, file_size_sum: 6 })).toBe('counted 1 file, 6 bytes');
  });

  it('names the job and what it was about in a failure line', () => {
    const failure = { jobId: 'j1', nasId: 1, shareId: 7, message: 'interrupted' };
    expect(describeJobFailure({ ...failure, kind: 'share_test', shareName: 'projects' })).toBe("share test of 'projects' failed: interrupted");
    expect(describeJobFailure({ ...failure, kind: 'share_scan', shareName: '' })).toBe('scan of share 7 failed: interrupted');
  });
});
