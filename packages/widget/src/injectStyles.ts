/** Puts the widget's style sheet, once, where the widget renders: the page head or a shadow root. */
import css from './styles.css?inline';

const MARKER = 'data-gatehouse-widget';

/** Adds the style sheet to the document or shadow root that holds `node`, unless already there. */
export function injectStyles(node: Node): void {
  const root = node.getRootNode();
  const target = root instanceof ShadowRoot ? root : (node.ownerDocument ?? document).head;
  if (target.querySelector(`style[${MARKER}]`)) return;
  const style = (node.ownerDocument ?? document).createElement('style');
  style.setAttribute(MARKER, '');
  style.textContent = css;
  target.appendChild(style);
}
