/**
 * The toolbar above a share's chart: the share's choice, and the switch between the chart and
 * its table (`what` names what is switched, as "space" in "Show space as table").
 */
export function ShareToolbar({
  name,
  rows,
  chosen,
  onChoose,
  asTable,
  onToggle,
  what,
}: {
  name: string;
  rows: ReadonlyArray<{ id: number; title: string }>;
  chosen: number;
  onChoose: (id: number) => void;
  asTable: boolean;
  onToggle: () => void;
  what?: string;
}) {
  const shown = what === undefined ? '' : `${what} `;
  return (
    <div className="growth-toolbar">
      <label>
        Share
        <select name={name} value={chosen} onChange={(event) => onChoose(Number(event.target.value))}>
          {rows.map((row) => (
            <option key={row.id} value={row.id}>
              {row.title}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="secondary" onClick={onToggle}>
        {asTable ? `Show ${shown}as chart` : `Show ${shown}as table`}
      </button>
    </div>
  );
}
