/** Inline SVG icons: provider logos, SSO key, arrow, success mark and the error illustration. */

export function GoogleIcon() {
  return (
    <svg className="gh-icon" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path
        fill="#FFC107"
        d="M43.6 20.1H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.6-.4-3.9z"
      />
      <path
        fill="#FF3D00"
        d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.1H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.6-.4-3.9z"
      />
    </svg>
  );
}

export function MicrosoftIcon() {
  return (
    <svg className="gh-icon" viewBox="0 0 21 21" aria-hidden="true" focusable="false">
      <path fill="#F25022" d="M1 1h9v9H1z" />
      <path fill="#7FBA00" d="M11 1h9v9h-9z" />
      <path fill="#00A4EF" d="M1 11h9v9H1z" />
      <path fill="#FFB900" d="M11 11h9v9h-9z" />
    </svg>
  );
}

export function KeyIcon() {
  return (
    <svg className="gh-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        d="M15 9a3 3 0 1 0 0-.01M12.9 11.1 4 20m3-3 2 2m-4-4 2 2"
      />
      <circle cx="15" cy="9" r="5" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

export function ArrowIcon() {
  return (
    <svg className="gh-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M5 12h14m-6-6 6 6-6 6"
      />
    </svg>
  );
}

export function SuccessIcon() {
  return (
    <svg className="gh-illustration" viewBox="0 0 120 120" aria-hidden="true" focusable="false">
      <circle cx="60" cy="60" r="52" fill="none" stroke="var(--gh-success)" strokeWidth="6" />
      <path
        fill="none"
        stroke="var(--gh-success)"
        strokeWidth="8"
        strokeLinecap="round"
        strokeLinejoin="round"
        d="m38 62 15 15 30-32"
      />
    </svg>
  );
}

/** A folded page with a warning mark: the Error screen's illustration. */
export function ErrorIllustration() {
  return (
    <svg className="gh-illustration" viewBox="0 0 120 120" aria-hidden="true" focusable="false">
      <rect
        x="22"
        y="14"
        width="76"
        height="92"
        rx="8"
        fill="var(--gh-bg)"
        stroke="var(--gh-border)"
        strokeWidth="4"
      />
      <path
        d="M36 36h48M36 50h48M36 64h28"
        stroke="var(--gh-border)"
        strokeWidth="4"
        strokeLinecap="round"
      />
      <circle cx="86" cy="84" r="22" fill="var(--gh-error)" />
      <path d="M86 72v14" stroke="#fff" strokeWidth="5" strokeLinecap="round" />
      <circle cx="86" cy="95" r="3" fill="#fff" />
    </svg>
  );
}
