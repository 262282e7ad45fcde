/** A polite live region for what just succeeded ("Invitation sent to …"), read out once. */
import { useMemo, useState } from 'react';

export interface NoticeState {
  text: string;
  show: (text: string) => void;
}

export function useNotice(): NoticeState {
  const [text, setText] = useState('');
  return useMemo(() => ({ text, show: setText }), [text]);
}

export function Notice({ notice }: { notice: NoticeState }) {
  return (
    <p className="gh-admin-notice" role="status">
      {notice.text}
    </p>
  );
}
