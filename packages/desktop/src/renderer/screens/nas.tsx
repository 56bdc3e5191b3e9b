import { EmptyState } from '../ui/empty-state.js';

export function NasScreen() {
  return <EmptyState title="Not built yet">This screen is being built.</EmptyState>;
}
