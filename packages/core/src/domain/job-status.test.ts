import { describe, expect, it } from 'vitest';
import { finishedJobStatuses, isJobFinished, jobStatuses, unfinishedJobStatuses } from './job-status.js';

describe('job statuses', () => {
  it('lists every status once, in the order of the API document', () => {
    expect(jobStatuses).toEqual(['queued', 'working', 'completed', 'failed']);
    expect(new Set([...unfinishedJobStatuses, ...finishedJobStatuses]).size).toBe(jobStatuses.length);
  });

  it.each([
    ['queued', false],
    ['working', false],
    ['completed', true],
    ['failed', true],
  ] as const)('a %s job is finished: %s', (status, finished) => {
    expect(isJobFinished({ status })).toBe(finished);
  });
});
