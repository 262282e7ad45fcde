/** Icons of the password screens, apart from the first screen's icons so they load with them. */

/** An eye, crossed out while the password is shown. */
export function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg className="gh-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <g fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
        <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
        <circle cx="12" cy="12" r="3" />
        {crossed && <path d="M4 4l16 16" />}
      </g>
    </svg>
  );
}

/** A tick for a met requirement, a hollow circle for one not met yet. */
export function CheckIcon({ met }: { met: boolean }) {
  return (
    <svg className="gh-icon gh-check" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="9" fill={met ? 'currentColor' : 'none'} stroke="currentColor" />
      {met && (
        <path
          d="M8 12.5l2.5 2.5L16 9.5"
          fill="none"
          stroke="var(--gh-bg)"
          strokeWidth="2"
          strokeLinecap="round"
        />
      )}
    </svg>
  );
}
