/** A form's submit button, named for creating or saving, and Cancel while an existing item is edited. */
export function FormActions({ editing, create, save, onCancel }: { editing: boolean; create: string; save: string; onCancel?: (() => void) | undefined }) {
  return (
    <div className="actions">
      <button type="submit">{editing ? save : create}</button>
      {editing && onCancel && (
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}
