import type { ScanAnalytics } from '../domain/scan-analytics.js';
import type { JsonText } from './json-text.js';

/** A completed scan's analytics (GET /nas_shares/{id}/scans/{scan_id}); absent for scans made before them. */
export interface ShareScanAnalyticsTable {
  /** The scan's id in `share_scans`; the row is deleted with it. */
  scan_id: number;
  /** Compact JSON, at most about 200 kB (docs/decisions/155-scan-analytics-one-pass.md). */
  analytics: JsonText<ScanAnalytics>;
}
