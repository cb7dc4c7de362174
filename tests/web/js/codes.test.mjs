// Reasons are worded from the server's codes, in English and Russian, never parsed
// from its English text: every key the reducer and the renderer may show exists in
// both dictionaries, and no module of the page reads a message's `reason`, `message`
// or `announcement`.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

// i18n.js reads the saved language at import (a browser's localStorage and navigator).
globalThis.localStorage ??= { getItem: () => null, setItem: () => {} };
if (!globalThis.navigator) Object.defineProperty(globalThis, 'navigator', { value: { language: 'en-US' }, configurable: true });

const STATIC = new URL('../../../src/uth/web/static/', import.meta.url);
const { DICTIONARIES } = await import(new URL('i18n.js', STATIC));
const { DECLINE_CODES, ERROR_CODES, SPOTS, VOID_KEYS, errorKey, voidedKey } = await import(new URL('reducer.js', STATIC));

function assertKey(key) {
  for (const [lang, dict] of Object.entries(DICTIONARIES)) assert.ok(Object.hasOwn(dict, key), `${lang}: no text for ${key}`);
}

describe('codes worded in every language', () => {
  it('every error code of docs/protocol.md', () => {
    for (const code of ERROR_CODES) assertKey(errorKey(code));
    assertKey('error.generic');
  });

  it('every bets_declined and round_voided code, and the limits', () => {
    for (const code of DECLINE_CODES) assertKey(`banner.declined_${code}`);
    for (const spot of SPOTS) {
      assertKey(`banner.declined_min_${spot}`);
      assertKey(`banner.declined_max_${spot}`);
    }
    for (const code of Object.keys(VOID_KEYS)) assertKey(voidedKey(code));
    assertKey('banner.declined');
    assertKey('banner.voided');
  });

  it('the connection overlay', () => {
    for (const key of [
      'conn.lost_title',
      'conn.offline_title',
      'conn.unreachable_title',
      'conn.lost_betting',
      'conn.lost_round',
      'conn.unreachable_round',
      'conn.lost_watching',
      'conn.retry_in',
      'conn.retrying',
      'conn.attempt',
      'conn.attempt_failed',
    ]) {
      assertKey(key);
    }
  });
});

describe('no English text of the server is read', () => {
  it('no page module reads a message’s reason, message or announcement', () => {
    // api.js keeps an HTTP error's message on the Error (for the console), never shown.
    const modules = readdirSync(STATIC).filter((f) => f.endsWith('.js') && f !== 'api.js');
    assert.ok(modules.includes('reducer.js') && modules.includes('render.js') && modules.includes('table.js'));
    for (const file of modules) {
      const text = readFileSync(new URL(file, STATIC), 'utf8');
      const hit = /\.(reason|message|announcement)\b/.exec(text);
      assert.equal(hit, null, `${file} reads ${hit?.[0]}`);
    }
  });
});
