// Playing cards drawn as SVG: rank and suit symbol, red or black, readable at phone size.
// Cards come from the server as notation strings: rank (2-9, T, J, Q, K, A) + suit (c d h s).
import { t } from './i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

// Suit shapes on a 100 x 100 box (drawn, not font glyphs: the same on every system).
const SUIT_PATHS = {
  h: 'M50 90 C22 68 4 50 4 31 C4 15 16 5 30 5 C40 5 47 11 50 19 C53 11 60 5 70 5 C84 5 96 15 96 31 C96 50 78 68 50 90 Z',
  d: 'M50 3 L86 50 L50 97 L14 50 Z',
  s: 'M50 4 C36 26 6 40 6 61 C6 75 17 83 29 83 C38 83 44 79 47 73 C46 83 42 90 34 96 L66 96 C58 90 54 83 53 73 C56 79 62 83 71 83 C83 83 94 75 94 61 C94 40 64 26 50 4 Z',
  c: 'M50 6 A19 19 0 0 1 65 37 A19 19 0 1 1 55 66 C56 80 60 89 67 96 L33 96 C40 89 44 80 45 66 A19 19 0 1 1 35 37 A19 19 0 0 1 50 6 Z',
};

const RED = new Set(['h', 'd']);

/** Whether a notation string is a card ("Ah", "Td"). */
export function isCard(code) {
  return typeof code === 'string' && /^[2-9TJQKA][cdhs]$/.test(code);
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function suit(parent, s, x, y, size, colour) {
  const g = el('g', { transform: `translate(${x} ${y}) scale(${size / 100})` }, parent);
  el('path', { d: SUIT_PATHS[s], fill: colour }, g);
  return g;
}

/**
 * The index printed on a card: 2-10, J, Q, K, A in every language. The ten is "10"
 * (never the notation's "T"); the Russian letters (В Д К Т) are not used, as their
 * Т (туз, the ace) reads as a ten.
 */
export function rankLabel(r) {
  return r === 'T' ? '10' : r;
}

/** The rank spoken by a screen reader, in the page's language ("Ace", "Туз", "10"). */
export function rankName(r) {
  return /[JQKA]/.test(r) ? t(`rank.${r}`) : rankLabel(r);
}

/**
 * One card, face up (a code such as "Ah") or face down (null).
 * The SVG carries data-card (the code) and a title for screen readers.
 */
export function cardSvg(code, { small = false } = {}) {
  const svg = el('svg', {
    viewBox: '0 0 60 84',
    class: `card${small ? ' card-small' : ''}${code ? '' : ' card-back'}`,
    role: 'img',
    translate: 'no', // the index (A K Q J 10) is the same in every language
  });
  if (!isCard(code)) {
    svg.setAttribute('aria-label', t('card.back'));
    svg.dataset.card = '';
    el('rect', { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: 'card-edge', fill: '#fff' }, svg);
    el('rect', { x: 4, y: 4, width: 52, height: 76, rx: 3, fill: '#7a1020' }, svg);
    // The hatch pattern is defined once in index.html (#uth-back-hatch).
    el('rect', { x: 7, y: 7, width: 46, height: 70, rx: 2, fill: 'url(#uth-back-hatch)', stroke: '#e8c46a', 'stroke-width': 1 }, svg);
    return svg;
  }
  const r = code[0];
  const s = code[1];
  const colour = RED.has(s) ? '#c8102e' : '#111';
  svg.dataset.card = code;
  svg.setAttribute('aria-label', `${rankName(r)} ${t(`suit.${s}`)}`);
  svg.classList.add(RED.has(s) ? 'card-red' : 'card-black');
  el('rect', { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: 'card-edge', fill: '#fff' }, svg);
  const label = rankLabel(r);
  const rank = el('text', {
    x: label.length > 1 ? 3 : 5,
    y: 25,
    'font-size': label.length > 1 ? 21 : 25,
    'font-weight': 700,
    'font-family': 'DejaVu Sans Condensed, Arial Narrow, Roboto Condensed, Arial, sans-serif',
    'letter-spacing': label.length > 1 ? -1.5 : 0,
    fill: colour,
  }, svg);
  rank.textContent = label;
  suit(svg, s, 6, 29, 14, colour);
  suit(svg, s, 22, 40, 33, colour);
  return svg;
}

/** A row of cards; `highlight` is a set of codes to mark as part of a best five. */
export function cardRow(codes, { small = false, highlight = null, dimOthers = false, bestClass = 'best' } = {}) {
  const frag = document.createDocumentFragment();
  for (const code of codes) {
    const svg = cardSvg(code, { small });
    if (highlight && code && highlight.has(code)) svg.classList.add(bestClass);
    else if (highlight && dimOthers && code) svg.classList.add('dim');
    frag.appendChild(svg);
  }
  return frag;
}
