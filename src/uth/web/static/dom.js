// A tiny DOM helper: h('div', {class: 'x'}, 'text', child, ...).

/** Create an element with attributes and children (strings become text nodes). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** The colour of a chip (or a stack) by its value. */
export function chipColour(value) {
  const n = Number(value);
  if (n >= 1000) return 'gold';
  if (n >= 500) return 'purple';
  if (n >= 100) return 'black';
  if (n >= 25) return 'green';
  if (n >= 5) return 'red';
  return 'white';
}
