import { useEffect } from 'react';
import { onAlertsChanged } from './alerts-changed.js';

/** How often what shows alerts reads them again: they are raised and cleared by the service, unasked. */
export const alertsRefreshMs = 15_000;

/** Calls `reload` every `alertsRefreshMs` while the page is visible, and at once when an alert was dismissed here. */
export function useAlertsReload(reload: () => void): void {
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, alertsRefreshMs);
    const unsubscribe = onAlertsChanged(reload);
    return () => (clearInterval(timer), unsubscribe());
  }, [reload]);
}
