/** An inline confirmation of a destructive action: its question, 'Confirm' (focused) and 'Cancel'. */
import { useId } from 'react';
import { Button } from '../parts/button.js';
import { useAdmin } from './admin-context.js';

export interface ConfirmBoxProps {
  text: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmBox({ text, busy, onConfirm, onCancel }: ConfirmBoxProps) {
  const { format } = useAdmin();
  const id = useId();
  return (
    <div className="gh-admin-confirm" role="group" aria-labelledby={id}>
      <p id={id} className="gh-text">
        {text}
      </p>
      <div className="gh-admin-actions">
        <Button autoFocus loading={busy} onClick={onConfirm}>
          {format('members.confirm')}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {format('common.cancel')}
        </Button>
      </div>
    </div>
  );
}
