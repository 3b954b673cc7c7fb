// Server refusals in the reader's language: the `code` (and for rules refusals the `reason`)
// of an error answer names a locale string; the server's English `message` is the fallback.

import { t, has } from './i18n.js';

/** Codes a player can meet in the UI, each with an `error.code.<code>` string in every locale. */
export const TRANSLATED_CODES = [
  'illegal_move', 'not_your_turn', 'game_over', 'not_started', 'seat_taken', 'no_draw_offer',
  'too_late_to_abort', 'game_not_over', 'impasse_rejected', 'impasse_not_allowed',
  'draw_not_allowed', 'rate_limited', 'too_many_sockets', 'storage_unavailable', 'unavailable',
  'cluster_unavailable',
  'cross_origin', 'wrong_token', 'missing_token', 'too_large', 'invalid_message', 'internal',
  'game_not_found', 'chat_invalid', 'chat_not_allowed', 'chat_full', 'nothing_to_take_back',
  'takeback_unfair', 'takeback_hidden', 'takeback_pending', 'no_takeback', 'premove_not_allowed',
  'claim_too_early',
  'too_many_seeks', 'seek_rate_limited',
  'game_in_progress',
  // Players (issue 24): the key, names, rated play.
  'invalid_name', 'name_taken', 'player_key_required', 'wrong_player_key', 'same_player',
  'rated_not_allowed', 'player_not_found', 'rating_out_of_range',
  // Set-up and request refusals a page can meet (a typed FEN, a link's parameters).
  'invalid_fen', 'invalid_side', 'invalid_handicap', 'invalid_level', 'unknown_variant',
  'bad_variant', 'unsupported_format', 'missing_text', 'not_found', 'invalid_request',
  // POST /api/import (the analysis page): said from the error's `params` (line, move, variants).
  'empty_record', 'bad_encoding', 'unknown_format', 'wrong_variant', 'bad_move', 'bad_position',
  'bad_record',
  // Tournaments (issue 25).
  'tournament_not_found', 'tournament_finished', 'not_in_tournament', 'too_many_tournaments',
  'berserk_not_allowed',
];

/** Every `reason` of docs/api.md (Reasons), each with an `error.reason.<reason>` string. */
export const TRANSLATED_REASONS = [
  'malformed', 'no_piece', 'not_your_piece', 'unreachable', 'leaves_general_in_check',
  'reveal_letter', 'off_board', 'not_in_hand', 'drop_on_occupied', 'dead_drop', 'nifu',
  'uchifuzume', 'must_promote', 'cannot_promote', 'leaves_king_in_check', 'game_over',
  'king_not_in_zone', 'too_few_pieces', 'in_check', 'too_few_points',
];

/**
 * The sentence to show for an error answer `{code, reason, message, params}` (an HTTP `error`
 * object, a WebSocket `error` message or an ApiError): the reason's string, else the code's
 * (written with the error's `params`, and its line first when it is on one), else the
 * server's own message, else the code itself.
 */
export function errorText({ code, reason, message, params } = {}) {
  if (code === 'network') return t('error.network');
  if (reason && has(`error.reason.${reason}`)) return t(`error.reason.${reason}`);
  if (code && has(`error.code.${code}`)) {
    const p = { ...(params || {}) };
    // Variant names are said in the reader's language.
    for (const k of ['wanted', 'found']) if (p[k]) p[k] = t(`variant.${p[k]}`);
    const text = t(`error.code.${code}`, p);
    return p.line ? t('error.atLine', { line: p.line, text }) : text;
  }
  return message || code || '';
}

/** The sentence for a failed request: the server's refusal (see errorText), or "network". */
export const failureText = (ex) => (ex?.status ? errorText(ex) : t('error.network'));
