// Hands named in words, in the page's language, from what the server sends: a category
// and the cards in the order that names the hand (docs/protocol.md, "Hand names":
// the pair, trips or quads first, then the kickers; a straight from its top card).
// No evaluation here: the server's evaluator decides the hand.
import { t } from './i18n.js';

const RANKS = '23456789TJQKA';

/** Which cards' ranks name each category: indices into the naming order. */
const NAMING_CARDS = {
  high_card: [0],
  pair: [0],
  two_pair: [0, 2],
  three_of_a_kind: [0],
  straight: [0],
  flush: [0],
  full_house: [0, 3],
  four_of_a_kind: [0],
  straight_flush: [0],
  royal_flush: [],
};

/** A rank's word in one grammatical form (`ranks.plural`, `ranks.of`, ...). */
function rankWord(form, card) {
  const i = RANKS.indexOf(String(card ?? '').charAt(0).toUpperCase());
  return i < 0 ? '' : t(form).split(' ')[i];
}

/**
 * The hand in words: "pair of sixes", "two pair, kings and sevens", "ace high".
 *
 * @param {{category: string, cards?: string[], best_five?: string[]}} hand the
 *   category and the cards in naming order: `best_five` (dealer_revealed, hand_shown,
 *   settlement) or `cards` (a hand so far, while deciding)
 * @param {{article?: boolean, capital?: boolean}} options article: "a pair of eights"
 *   (inside "Dealer has ..."); capital: "Pair of sixes" (a label of its own).
 * @returns {string} the name, or '' for an unknown category
 */
export function handName(hand, { article = false, capital = false } = {}) {
  // `best_five` at the showdown (where `cards` are the hole cards), `cards` while deciding.
  const cards = hand?.best_five ?? hand?.cards ?? [];
  const picks = NAMING_CARDS[hand?.category];
  if (!picks) return '';
  const vars = {};
  picks.forEach((index, n) => {
    const card = cards[index];
    vars[`of${n + 1}`] = rankWord('ranks.of', card); // "pair of SIXES", "пара ШЕСТЁРОК"
    vars[`pl${n + 1}`] = rankWord('ranks.plural', card); // "kings and SEVENS", "КОРОЛИ и семёрки"
    vars[`to${n + 1}`] = rankWord('ranks.to', card); // "ten high", "до ДЕСЯТКИ"
    vars[`one${n + 1}`] = rankWord('ranks.one', card); // "ACE high", "старшая карта ТУЗ"
  });
  const text = t(`${article ? 'handa' : 'hand'}.${hand.category}`, vars);
  return capital ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}
