/**
 * Strength feedback under a new password: that the check is running, then the zxcvbn bar with
 * the warning (or the suggestions) in the widget's language, or the LUDS checklist.
 */
import { useMessages } from '../messages/use-messages.js';
import { useZxcvbnFeedback } from '../messages/zxcvbn-feedback.js';
import { CheckIcon } from './password-icons.js';
import { Spinner } from './spinner.js';
import type { StrengthCheck } from './use-strength-check.js';

/** How many of the four segments are lit, and in which colour (docs/widget.md §5). */
export function strengthBar(score: number): { filled: number; tone: 'weak' | 'strong' } {
  if (score >= 4) return { filled: 4, tone: 'strong' };
  if (score === 3) return { filled: 3, tone: 'strong' };
  if (score === 2) return { filled: 2, tone: 'weak' };
  return { filled: 1, tone: 'weak' };
}

const SEGMENTS = [0, 1, 2, 3];

function Bar({ score }: { score: number }) {
  const format = useMessages();
  const { filled, tone } = strengthBar(score);
  return (
    <div
      className="gh-strength-bar"
      role="meter"
      aria-label={format('password.strength')}
      aria-valuemin={0}
      aria-valuemax={4}
      aria-valuenow={score}
    >
      {SEGMENTS.map((i) => (
        <span
          key={i}
          className={i < filled ? `gh-strength-segment gh-strength-${tone}` : 'gh-strength-segment'}
        />
      ))}
    </div>
  );
}

function Requirement({ met, text }: { met: boolean; text: string }) {
  const format = useMessages();
  return (
    <li className={met ? 'gh-luds-item gh-luds-met' : 'gh-luds-item'}>
      <CheckIcon met={met} />
      <span className="gh-label">
        {format(met ? 'password.requirementMet' : 'password.requirementMissing')}
      </span>
      <span>{text}</span>
    </li>
  );
}

export interface PasswordStrengthProps {
  id: string;
  check: StrengthCheck;
  /** The LUDS rules; given when the project uses LUDS, so the list shows before any check. */
  luds: { minimumCount: number; complexity: number } | null;
  /** The language of zxcvbn's warning and suggestions (sent in English); null for English. */
  language: string | null;
}

export function PasswordStrength({ id, check, luds, language }: PasswordStrengthProps) {
  const format = useMessages();
  const inLanguage = useZxcvbnFeedback(language);
  const result = check.status === 'checked' ? check.result : null;
  const policy = result?.strength_policy ?? (luds ? 'luds' : null);
  const breached = result?.breached_password ? format('password.breached') : null;
  const rules = luds ?? { minimumCount: 8, complexity: 3 };
  // zxcvbn's warning names the problem; without one, its suggestions say what would help.
  const feedback = result?.zxcvbn_feedback;
  const advice = (feedback?.warning ? [feedback.warning] : (feedback?.suggestions ?? [])).map(
    inLanguage,
  );

  return (
    <div id={id} className="gh-strength" aria-live="polite">
      {check.status === 'checking' && (
        <p className="gh-strength-text gh-strength-checking">
          <Spinner decorative />
          {format('password.checking')}
        </p>
      )}
      {policy === 'zxcvbn' && result && (
        <>
          <Bar score={result.score} />
          {(breached ? [breached] : advice).map((text) => (
            <p key={text} className="gh-strength-text">
              {text}
            </p>
          ))}
        </>
      )}
      {policy === 'luds' && (
        <>
          <ul className="gh-luds">
            <Requirement
              met={result?.luds_feedback.missing_characters === 0}
              text={format('password.ludsLength', { minimum: String(rules.minimumCount) })}
            />
            <Requirement
              met={result?.luds_feedback.missing_complexity === 0}
              text={format('password.ludsComplexity', { n: String(rules.complexity) })}
            />
          </ul>
          {breached && <p className="gh-strength-text">{breached}</p>}
        </>
      )}
    </div>
  );
}
