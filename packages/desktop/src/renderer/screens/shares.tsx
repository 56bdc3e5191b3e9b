import { api } from '../trpc-client.js';
import { useLoad } from '../ui/use-load.js';
import { ShareForm } from './share-form.js';
import { ShareTable } from './share-table.js';

export function SharesScreen() {
  const nas = useLoad(() => api.nas.list.query({ sort_by: 'name' }));
  const shares = useLoad(() => api.shares.list.query({ query: { sort_by: 'name' } }));
  return (
    <>
      <ShareTable shares={shares.data?.nas_shares ?? []} nas={nas.data?.nas ?? []} />
      <ShareForm nas={nas.data?.nas ?? []} onCreated={shares.reload} />
    </>
  );
}
