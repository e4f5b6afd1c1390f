// The top bar's assistant activity pill (spec 000 §2): what the assistant is
// doing for the person on the server, from GET /api/assistant/activity.
// It says Checking… until the first answer, then Idle, Working (N), Queued,
// Stopping or Paused (kept distinct: queued or paused work is not working),
// and Unavailable with Retry when the check fails (no server, offline, an
// error). It checks every few seconds while the page is visible, on focus,
// and just after a message is sent from the dock, so a turn shows as it
// starts. Others listen for `ensemble:activity` (detail: {turns}) on
// document, e.g. Needs me reloads its list when a turn ends.
//
// Beside it, Pause (while the assistant works) stops its turns and keeps it
// from starting any, chats and routines alike, until Resume (shown while
// paused): POST /api/assistant/pause and /resume.

import {api} from '../api.js';
import {byTestId} from '../util.js';

const kPollMs = 4000;
const kBusyPollMs = 1500;  // While something runs, so its end shows soon.

const el = {
  pill: byTestId('activity-pill'),
  retry: byTestId('activity-retry'),
  pause: byTestId('activity-pause'),
};

let timer = null;
let checking = false;

// The pill's words for a list of turns and whether the assistant is
// paused, and a state for styling and tests. Turns still stopping show
// before Paused: the pause is not over them yet.
export function describe(turns, paused = false) {
  const count = (state) => turns.filter((t) => t.state === state).length;
  const working = count('working');
  if (working) return {state: 'working', text: `Working (${working})`};
  if (count('stopping')) return {state: 'stopping', text: 'Stopping'};
  const queued = count('queued');
  if (queued) return {state: 'queued', text: queued === 1 ? 'Queued' : `Queued (${queued})`};
  if (paused || count('paused')) return {state: 'paused', text: 'Paused'};
  return {state: 'idle', text: 'Idle'};
}

function show(state, text, title, paused = false) {
  el.pill.dataset.state = state;
  el.pill.textContent = text;
  el.pill.title = title;
  el.retry.hidden = state !== 'unavailable';
  const offer = paused ? 'resume' : ['working', 'queued'].includes(state) ? 'pause' : null;
  el.pause.hidden = !offer;
  if (offer && el.pause.dataset.action !== offer) {
    el.pause.dataset.action = offer;
    el.pause.textContent = offer === 'pause' ? 'Pause' : 'Resume';
    el.pause.setAttribute('aria-label', offer === 'pause' ? 'Pause the assistant' : 'Resume the assistant');
  }
}

// Pause or Resume, as the button offers; the pill then says what is so.
async function togglePause() {
  const action = el.pause.dataset.action;
  el.pause.disabled = true;
  try {
    await api('POST', `/api/assistant/${action}`);
  } catch (e) {
    el.pill.title = `The assistant was not ${action === 'pause' ? 'paused' : 'resumed'}: ${e.message}`;
  } finally {
    el.pause.disabled = false;
    check(true);
  }
}

// Asks the server what the assistant is doing; `again` runs one more check
// after one in flight (whose answer may predate a Pause).
let checkAgain = false;
export async function check(again = false) {
  if (checking) {
    checkAgain ||= again;
    return;
  }
  checking = true;
  clearTimeout(timer);
  let busy = false;
  try {
    const {turns = [], paused = false} = await api('GET', '/api/assistant/activity');
    const {state, text} = describe(turns, paused);
    busy = state !== 'idle' && state !== 'paused';
    show(state, text, state === 'paused' ? 'The assistant is paused: it starts nothing until resumed'
                    : busy ? `The assistant: ${text.toLowerCase()}`
                           : 'The assistant is not working on anything', paused);
    document.dispatchEvent(new CustomEvent('ensemble:activity', {detail: {turns}}));
  } catch (e) {
    show('unavailable', 'Unavailable',
         `The assistant's activity could not be checked: ${e.message ?? 'no answer'}`);
  } finally {
    checking = false;
    schedule(busy ? kBusyPollMs : kPollMs);
    if (checkAgain) {
      checkAgain = false;
      check();
    }
  }
}

function schedule(ms) {
  clearTimeout(timer);
  if (document.visibilityState === 'visible') timer = setTimeout(check, ms);
}

export function init() {
  el.pause.addEventListener('click', () => togglePause());
  el.retry.addEventListener('click', () => {
    show('checking', 'Checking…', 'Checking what the assistant is doing');
    check();
  });
  window.addEventListener('focus', () => check());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
    else clearTimeout(timer);
  });
  // A message sent from the dock starts a turn: look soon after, rather
  // than at the next poll.
  document.addEventListener('submit', (e) => {
    if (e.target.closest?.('[data-testid="dock"]')) setTimeout(check, 300);
  });
  check();
}
