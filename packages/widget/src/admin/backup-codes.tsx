/** Backup codes shown once: the list, 'Copy all', 'Download' and 'I have saved them'. */
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../parts/button.js';
import { useAdmin } from './admin-context.js';

/** Saves text as a file through a temporary link, the one way a page can start a download. */
function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked on a later task: some browsers read the blob only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { format } = useAdmin();
  const id = useId();
  const [copied, setCopied] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus moves to the codes as they appear, so a screen reader reads them out at once.
  useEffect(() => heading.current?.focus(), []);
  const text = codes.join('\n');
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setCopied(format('common.copied')),
      () => setCopied(format('common.copyFailed')),
    );
  };
  return (
    <div className="gh-admin-card" role="group" aria-labelledby={`${id}-heading`}>
      <h4 id={`${id}-heading`} ref={heading} tabIndex={-1} className="gh-admin-subheading">
        {format('account.codesList')}
      </h4>
      <p className="gh-text">{format('account.codesShown')}</p>
      <ul className="gh-admin-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="gh-admin-actions">
        <Button variant="secondary" onClick={copy}>
          {format('account.codesCopy')}
        </Button>
        <Button variant="secondary" onClick={() => downloadText('backup-codes.txt', text + '\n')}>
          {format('account.codesDownload')}
        </Button>
        <Button onClick={onDone}>{format('account.codesDone')}</Button>
      </div>
      <span className="gh-text-secondary gh-admin-hint" role="status">
        {copied}
      </span>
    </div>
  );
}
