/** A value to paste into the identity provider, read-only, with a copy button. */
import { useId, useState } from 'react';
import { Button } from '../parts/button.js';
import { useAdmin } from './admin-context.js';

export function CopyField({ label, value }: { label: string; value: string }) {
  const { format } = useAdmin();
  const id = useId();
  const [result, setResult] = useState('');
  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => setResult(format('common.copied')),
      () => setResult(format('common.copyFailed')),
    );
  };
  return (
    <div className="gh-admin-field">
      <label htmlFor={id}>{label}</label>
      <div className="gh-admin-copy">
        <input id={id} className="gh-input" readOnly value={value} />
        <Button
          variant="secondary"
          onClick={copy}
          aria-label={`${format('common.copy')}: ${label}`}
        >
          {format('common.copy')}
        </Button>
      </div>
      <span className="gh-text-secondary gh-admin-hint" role="status">
        {result}
      </span>
    </div>
  );
}
