import { useId } from 'react';

/** The share whose space is shown. */
export function ShareToolbarChoice({
  rows,
  chosen,
  onChoose,
}: {
  rows: ReadonlyArray<{ id: number; title: string }>;
  chosen: number;
  onChoose: (id: number) => void;
}) {
  const id = useId();
  return (
    <div className="growth-toolbar">
      <label htmlFor={id}>Share</label>
      <select id={id} name="analytics-share" value={chosen} onChange={(event) => onChoose(Number(event.target.value))}>
        {rows.map((row) => (
          <option key={row.id} value={row.id}>
            {row.title}
          </option>
        ))}
      </select>
    </div>
  );
}
