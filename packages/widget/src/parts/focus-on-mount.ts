/**
 * A callback ref that focuses its element once, as it mounts: what `autoFocus` does in React,
 * for every renderer of the widget. Preact only writes the `autofocus` attribute, which a browser
 * honours for the first such element of a page, never for one shown later (a dialog's button).
 * Module-level, so that its identity never changes and a re-render does not focus again.
 *
 * @example
 * <input ref={focusOnMount} />
 */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus();
}
