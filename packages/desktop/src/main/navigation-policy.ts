/**
 * The window shows the bundled console and nothing else: a link or a script that tries to
 * navigate away, or to open a window, is refused, so no remote page ever runs beside the IPC bridge.
 */
export const navigationPolicy = {
  /** `will-navigate` and `will-redirect`: always prevented. */
  allowNavigation: (_url: string): boolean => false,
  /** `setWindowOpenHandler`: always denied. */
  windowOpen: (_details: { url: string }): { action: 'deny' } => ({ action: 'deny' }),
  /**
   * Permission requests (camera, notifications, …): refused, but for writing to the clipboard,
   * which the "Copy" of a new API key needs (sanitized: text only, never a read).
   */
  allowPermission: (permission: string): boolean => permission === 'clipboard-sanitized-write',
} as const;

/** The response headers every renderer page is served with. */
export function securityHeaders(csp: string): Record<string, string> {
  return { 'Content-Security-Policy': csp, 'X-Content-Type-Options': 'nosniff' };
}
