/** The frame of every MFA screen, which brings the MFA style sheet with the first of them. */
import type { ReactNode } from 'react';
import css from './mfa.css?inline';
import { StyleSheet } from './style-sheet.js';

export function MfaScreen({ children }: { children: ReactNode }) {
  return (
    <div className="gh-screen">
      <StyleSheet name="mfa" css={css} />
      {children}
    </div>
  );
}
