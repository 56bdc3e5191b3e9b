import { useState } from 'react';
import type { TopDirectory } from '@dms/core';
import { humanBytes, plural } from '../../ui/format.js';
import { BarList, TableToggle } from './share-analytics-bars.js';

const parentOf = (path: string) => path.slice(0, path.lastIndexOf('/')) || '/';
const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * The scan's top directories as sorted bars, a level at a time: the share's root first, a
 * directory's subdirectories after a click on it (those the scan kept: three levels deep), and
 * back up by the path above the bars. The table shows the same level.
 */
export function DirectoryBars({ directories, total }: { directories: readonly TopDirectory[]; total: { bytes: number; files: number } }) {
  const [current, setCurrent] = useState('/');
  const [asTable, setAsTable] = useState(false);
  const children = directories.filter((directory) => parentOf(directory.path) === current).sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : 1));
  const hasChildren = (path: string) => directories.some((directory) => parentOf(directory.path) === path);
  const here = current === '/' ? total : directories.find((directory) => directory.path === current);
  const trail = current === '/' ? [] : current.split('/').slice(1);
  return (
    <div className="analytics-directories">
      <nav aria-label="Directory shown" className="analytics-trail">
        <button type="button" className="link" onClick={() => setCurrent('/')} aria-current={current === '/' ? 'location' : undefined}>
          / (the share)
        </button>
        {trail.map((name, index) => {
          const path = `/${trail.slice(0, index + 1).join('/')}`;
          return (
            <span key={path}>
              {' / '}
              <button type="button" className="link" onClick={() => setCurrent(path)} aria-current={path === current ? 'location' : undefined}>
                {name}
              </button>
            </span>
          );
        })}
      </nav>
      <p className="hint">
        {here ? `${humanBytes(here.bytes)} in ${plural(here.files, 'file')} here and below.` : ''} Click a directory to see its subdirectories.
      </p>
      <TableToggle asTable={asTable} onToggle={() => setAsTable((value) => !value)} what="directories" />
      {asTable ? (
        <table aria-label={`Directories in ${current}`}>
          <thead>
            <tr>
              <th scope="col">Directory</th>
              <th scope="col">Size</th>
              <th scope="col">Files</th>
            </tr>
          </thead>
          <tbody>
            {children.map((directory) => (
              <tr key={directory.path}>
                <th scope="row">
                  {hasChildren(directory.path) ? (
                    <button type="button" className="link" onClick={() => setCurrent(directory.path)}>
                      {nameOf(directory.path)}
                    </button>
                  ) : (
                    nameOf(directory.path)
                  )}
                </th>
                <td>{humanBytes(directory.bytes)}</td>
                <td>{directory.files.toLocaleString('en')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <BarList
          label={`Directories in ${current}, largest first`}
          empty="No subdirectories kept here."
          bars={children.map((directory) => ({
            key: directory.path,
            label: nameOf(directory.path),
            detail: `${humanBytes(directory.bytes)}, ${plural(directory.files, 'file')}`,
            value: directory.bytes,
            ...(hasChildren(directory.path)
              ? { onOpen: () => setCurrent(directory.path), openLabel: `${nameOf(directory.path)}, ${humanBytes(directory.bytes)}: open its subdirectories` }
              : {}),
          }))}
        />
      )}
    </div>
  );
}
