import { describe, expect, it } from 'vitest';
import { describeJobFailure, scanSummary } from './job-messages.js';

describe('job messages', () => {
  it('says what a scan counted, with thousands separated', () => {
    expect(scanSummary({ file_count: 1234, file_size_sum: 5_600_000 })).toBe('counted 1,234 files, 5.6 MB');
    expect(scanSummary({ file_count: 1, file_size_sum: 6 })).toBe('counted 1 file, 6 bytes');
  });

  it('issue 42: names the directories a scan skipped, the first few of many', () => {
    const shown = ["'a' (permission denied)", "'b' (permission denied)"];
    expect(scanSummary({ file_count: 3, file_size_sum: 6, skipped: { count: 0, shown: [] } })).toBe('counted 3 files, 6 bytes');
    expect(scanSummary({ file_count: 3, file_size_sum: 6, skipped: { count: 1, shown: shown.slice(0, 1) } })).toBe(
      "counted 3 files, 6 bytes; skipped 1 directory: 'a' (permission denied)",
    );
    expect(scanSummary({ file_count: 3, file_size_sum: 6, skipped: { count: 1002, shown } })).toBe(
      "counted 3 files, 6 bytes; skipped 1,002 directories: 'a' (permission denied), 'b' (permission denied) and 1,000 more",
    );
  });

  it('names the job and what it was about in a failure line', () => {
    const failure = { jobId: 'j1', nasId: 1, shareId: 7, message: 'interrupted' };
    expect(describeJobFailure({ ...failure, kind: 'share_test', shareName: 'projects' })).toBe("share test of 'projects' failed: interrupted");
    expect(describeJobFailure({ ...failure, kind: 'share_scan', shareName: '' })).toBe('scan of share 7 failed: interrupted');
  });
});
