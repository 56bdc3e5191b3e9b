/**
 * Tells what shows the alerts (the header's badge, the overview's list) that an alert was
 * dismissed or undismissed here, so they read again at once rather than at their next interval.
 */
const listeners = new Set<() => void>();

export function notifyAlertsChanged(): void {
  for (const listener of listeners) listener();
}

export function onAlertsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
