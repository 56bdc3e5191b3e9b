import { ConfirmButton } from './confirm-button.js';

interface EditDeleteActionsProps {
  /** What the row is, for the buttons' accessible names: "user alice" gives "Edit user alice". */
  name: string;
  onEdit: () => void;
  /** The confirmation Delete asks, saying what deleting does. */
  question: string;
  onDelete: () => Promise<void>;
}

/** A list row's Edit and Delete (Delete asks first). */
export function EditDeleteActions({ name, onEdit, question, onDelete }: EditDeleteActionsProps) {
  return (
    <div className="admin-row-actions">
      <button type="button" className="secondary" aria-label={`Edit ${name}`} onClick={onEdit}>
        Edit
      </button>
      <ConfirmButton label="Delete" accessibleLabel={`Delete ${name}`} question={question} onConfirm={onDelete} />
    </div>
  );
}
