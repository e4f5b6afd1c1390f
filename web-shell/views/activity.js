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
// Pause and resume are not offered: the server has no pause route yet.

import {byTestId, requestJson} from '../util.js';

const kPollMs = 4000;
const kBusyPollMs = 1500;  // While something runs, so its end shows soon.

const el = {
  pill: byTestId('activity-pill'),
  retry: byTestId('activity-retry'),
};

let timer = null;
let checking = false;

// The pill's words for a list of turns, and a state for styling and tests.
export function describe(turns) {
  const count = (state) => turns.filter((t) => t.state === state).length;
  const working = count('working');
  if (working) return {state: 'working', text: `Working (${working})`};
  if (count('stopping')) return {state: 'stopping', text: 'Stopping'};
  const queued = count('queued');
  if (queued) return {state: 'queued', text: queued === 1 ? 'Queued' : `Queued (${queued})`};
  if (count('paused')) return {state: 'paused', text: 'Paused'};
  return {state: 'idle', text: 'Idle'};
}

function show(state, text, title) {
  el.pill.dataset.state = state;
  el.pill.textContent = text;
  el.pill.title = title;
  el.retry.hidden = state !== 'unavailable';
}

export async function check() {
  if (checking) return;
  checking = true;
  clearTimeout(timer);
  let busy = false;
  try {
    const {turns = []} = await requestJson('GET', '/api/assistant/activity');
    const {state, text} = describe(turns);
    busy = state !== 'idle';
    show(state, text, busy ? `The assistant: ${text.toLowerCase()}`
                           : 'The assistant is not working on anything');
    document.dispatchEvent(new CustomEvent('ensemble:activity', {detail: {turns}}));
  } catch (e) {
    show('unavailable', 'Unavailable',
         `The assistant's activity could not be checked: ${e.message ?? 'no answer'}`);
  } finally {
    checking = false;
    schedule(busy ? kBusyPollMs : kPollMs);
  }
}

function schedule(ms) {
  clearTimeout(timer);
  if (document.visibilityState === 'visible') timer = setTimeout(check, ms);
}

export function init() {
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
