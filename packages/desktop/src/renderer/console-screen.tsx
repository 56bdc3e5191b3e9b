import { useCallback, useEffect, useState } from 'react';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../main/router/index.js';
import { api } from './trpc-client.js';
import { ShareForm } from './share-form.js';
import { ShareTable } from './share-table.js';

type Outputs = inferRouterOutputs<AppRouter>;

export function ConsoleScreen({ username, onSignOut }: { username: string; onSignOut: () => void }) {
  const [overview, setOverview] = useState<Outputs['overview']['show'] | null>(null);
  const [nas, setNas] = useState<Outputs['nas']['list']['nas']>([]);
  const [shares, setShares] = useState<Outputs['shares']['list']['nas_shares']>([]);

  const refresh = useCallback(async () => {
    const [summary, nasPage, sharePage] = await Promise.all([api.overview.show.query(), api.nas.list.query({ sort_by: 'name' }), api.shares.list.query({ query: { sort_by: 'name' } })]);
    setOverview(summary);
    setNas(nasPage.nas);
    setShares(sharePage.nas_shares);
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  return (
    <>
      <header className="bar">
        <span className="brand">dms console</span>
        <span>
          Signed in as <strong>{username}</strong>{' '}
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        </span>
      </header>
      <main>
        <h1>Overview</h1>
        {overview && (
          <ul className="cards" aria-label="Counts">
            <li>
              <span className="count">{overview.counts.nas}</span> NAS
            </li>
            <li>
              <span className="count">{overview.counts.pools}</span> pools
            </li>
            <li>
              <span className="count">{overview.counts.nas_shares}</span> shares
            </li>
            <li>
              <span className="count">{overview.counts.snmp_traps}</span> SNMP traps
            </li>
            <li>
              SNMP agent: <strong>{overview.snmp_agent.state}</strong>
            </li>
          </ul>
        )}
        <section aria-labelledby="nas-heading">
          <h2 id="nas-heading">NAS</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Host</th>
                <th scope="col">Type</th>
              </tr>
            </thead>
            <tbody>
              {nas.map((item) => (
                <tr key={item.id}>
                  <td>{item.name}</td>
                  <td>{item.host}</td>
                  <td>{item.type}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section aria-labelledby="shares-heading">
          <h2 id="shares-heading">Shares</h2>
          <ShareTable shares={shares} nas={nas} />
          <ShareForm nas={nas} onCreated={() => void refresh()} />
        </section>
      </main>
    </>
  );
}
