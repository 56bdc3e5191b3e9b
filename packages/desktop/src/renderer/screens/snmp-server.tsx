import { EmptyState } from '../ui/empty-state.js';

export function SnmpServerScreen() {
  return <EmptyState title="Not built yet">This screen is being built.</EmptyState>;
}
