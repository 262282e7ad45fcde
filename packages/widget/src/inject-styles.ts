/** Puts the widget's style sheets, once each, where the widget renders: the page head or a shadow root. */
import css from './styles.css?inline';

const MARKER = 'data-gatehouse-widget';

/**
 * Adds a style sheet to the document or shadow root that holds `node`, unless already there.
 * Without arguments it is the widget's own sheet; lazily loaded screens add theirs by name.
 */
export function injectStyles(node: Node, sheet: string = css, name = 'widget'): void {
  const root = node.getRootNode();
  const target = root instanceof ShadowRoot ? root : (node.ownerDocument ?? document).head;
  if (target.querySelector(`style[${MARKER}="${name}"]`)) return;
  const style = (node.ownerDocument ?? document).createElement('style');
  style.setAttribute(MARKER, name);
  style.textContent = sheet;
  target.appendChild(style);
}
