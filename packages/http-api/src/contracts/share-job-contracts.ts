import { activeJobStatusSchema, nasShareCreateSchema } from '@dms/core';
import { z } from 'zod';
import { defineContract, type RouteContract, type SuccessResponse } from './route-contract.js';

const jobQuerySchema = z.object({
  job_id: z.string().describe('the job_id returned by the PUT'),
  wait: z.string().optional().describe('long-poll up to this many seconds (0–30) until the job changes state'),
});

const followed: SuccessResponse = { status: 200, description: 'finished job (202 while queued or working)', schema: activeJobStatusSchema };
const accepted: SuccessResponse = { status: 202, description: 'queued job', schema: activeJobStatusSchema };

function savedShareJobContracts(kind: 'test' | 'scan'): RouteContract[] {
  const path = `/nas_shares/:nas_share_id/${kind}`;
  return [
    defineContract({
      method: 'put',
      path,
      tag: 'nas_shares',
      summary: kind === 'test' ? 'Re-test a saved share' : 'Scan a saved share for file_count and file_size_sum',
      scope: { controller: 'nas_shares', action: kind },
      success: accepted,
      errors: [404],
    }),
    defineContract({
      method: 'get',
      path,
      tag: 'nas_shares',
      summary: `Follow a ${kind} job of a saved share`,
      scope: { controller: 'nas_shares', action: kind },
      query: jobQuerySchema,
      success: followed,
      errors: [404],
    }),
  ];
}

/** Spec endpoints 3 and 4, plus test and scan of a saved share. */
export const shareJobContracts: readonly RouteContract[] = [
  defineContract({
    method: 'put',
    path: '/nas/:nas_id/nas_shares/-/test',
    tag: 'nas_shares',
    summary: 'Test an unsaved share (really connects to it)',
    scope: { controller: 'nas_shares', action: 'test' },
    body: nasShareCreateSchema,
    success: accepted,
    errors: [404, 413, 422],
  }),
  defineContract({
    method: 'get',
    path: '/nas/:nas_id/nas_shares/-/test',
    tag: 'nas_shares',
    summary: 'Follow a share test job',
    scope: { controller: 'nas_shares', action: 'test' },
    query: jobQuerySchema,
    success: followed,
    errors: [404],
  }),
  ...savedShareJobContracts('test'),
  ...savedShareJobContracts('scan'),
];
