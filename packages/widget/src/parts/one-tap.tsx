/**
 * Google One Tap on Main: asks for the prompt once Main shows, closes it when Main goes, and says
 * 'One Tap could not load' with the reason when it does not come up (docs/widget.md §8).
 */
import { useEffect, useState } from 'react';
import { useMessages } from '../messages/use-messages.js';
import { useWidget } from '../widget-context.js';

export function OneTap() {
  const format = useMessages();
  const { actions } = useWidget();
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const fail = (reason: string) => {
      if (live) setFailure(reason);
    };
    void actions.startOneTap(fail).then((result) => {
      if (!result.success) fail(result.reason);
    });
    return () => {
      live = false;
      actions.cancelOneTap();
    };
  }, [actions]);

  if (!failure) return null;
  return (
    <p className="gh-text gh-text-secondary" role="status">
      {format('oneTap.failed')} ({failure})
    </p>
  );
}
