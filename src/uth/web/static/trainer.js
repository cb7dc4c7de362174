// Trainer mode (issue 11): what the server's trainer messages show at the table.
// The browser computes nothing: the EVs come in `trainer_advice` (beside each decision)
// and the costs in `trainer_review` (after the showdown), sent to this player only and
// only while the trainer is on (docs/protocol.md, "Trainer mode").

import { h } from './dom.js';
import { getLang, t } from './i18n.js';

const LOCALES = { en: 'en-US', ru: 'ru-RU' };

/** An EV or a cost in Antes: "+0.312", "−2.000" (three decimals, the page's language). */
export function formatEv(value, { sign = true } = {}) {
  return new Intl.NumberFormat(LOCALES[getLang()] ?? 'en-US', {
    minimumFractionDigits: 3,
    maximumFractionDigits: 3,
    signDisplay: sign ? 'exceptZero' : 'auto',
  })
    .format(Number(value))
    .replace('-', '−');
}

/**
 * Beside each decision button, the EV of that action; the best one marked.
 * `box` holds the buttons (`[data-action]`); `advice` is the `trainer_advice` message
 * of the open decision (or null: nothing is added).
 */
export function decorateDecision(box, advice) {
  if (!advice) return;
  for (const btn of box.querySelectorAll('[data-action]')) {
    const action = btn.getAttribute('data-action');
    if (!(action in advice.actions)) continue;
    const best = action === advice.best;
    btn.classList.toggle('trainer-best', best);
    btn.append(
      h(
        'span',
        { class: 'trainer-ev', 'data-ev': String(advice.actions[action]), title: t('trainer.ev_title') },
        formatEv(advice.actions[action]),
        best ? h('b', { class: 'trainer-best-mark' }, ` ${t('trainer.best')}`) : null,
      ),
    );
  }
}

/** The trainer panel: the last round's decisions with their cost, and the session total. */
export function renderTrainerPanel(panel, trainer) {
  panel.replaceChildren();
  panel.hidden = !trainer?.on;
  if (!trainer?.on) return;
  panel.append(h('h3', {}, t('trainer.title')));
  const review = trainer.review;
  if (review?.decisions?.length) {
    const rows = review.decisions.map((d) =>
      h(
        'tr',
        { 'data-street': d.street, class: d.cost > 0 ? 'trainer-costly' : 'trainer-right' },
        h('th', {}, t(`trainer.street.${d.street}`)),
        h('td', {}, t(`action.${d.action}`) + (d.auto ? ` (${t('trainer.auto')})` : '')),
        h('td', {}, t(`action.${d.best}`)),
        h('td', { class: 'trainer-cost', 'data-cost': String(d.cost) }, formatEv(d.cost, { sign: false })),
      ),
    );
    panel.append(
      h(
        'table',
        { class: 'trainer-review', id: 'trainer-review' },
        h(
          'thead',
          {},
          h('tr', {}, h('th', {}, t('trainer.col_street')), h('th', {}, t('trainer.col_you')), h('th', {}, t('trainer.col_best')), h('th', {}, t('trainer.col_cost'))),
        ),
        h('tbody', {}, ...rows),
      ),
      h('div', { class: 'trainer-line' }, t('trainer.round_cost'), ' ', h('b', { id: 'trainer-round-cost' }, formatEv(review.round_cost, { sign: false }))),
    );
  } else {
    panel.append(h('p', { class: 'hint' }, t('trainer.waiting')));
  }
  panel.append(
    h(
      'div',
      { class: 'trainer-line' },
      t('trainer.session_cost', { rounds: trainer.rounds ?? 0 }),
      ' ',
      h('b', { id: 'trainer-session-cost' }, formatEv(trainer.session_cost ?? 0, { sign: false })),
    ),
    h('p', { class: 'hint trainer-unit' }, t('trainer.unit')),
  );
}
