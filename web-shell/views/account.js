// Signing in, when the server keeps accounts (ENSEMBLE_ACCOUNTS=on): the
// sign-in form while the server wants one, the signed-in account and Sign
// out in the sidebar. Local mode (one person, the default) shows neither.
//
// This device's replica belongs to one account: a different account signing
// in here is signed out again, so nobody reads or pushes another person's
// offline copy, and offered to remove that copy and start fresh. Signing
// out offers the same, for a shared or borrowed device.

import {api, kOffline} from '../api.js';
import {poke, rpc} from '../rpc.js';
import {loadSpaces, notify, state} from '../state.js';
import {byTestId} from '../util.js';

const kAccountKey = 'ensemble-account';
let offered = false;  // Whether this signed-out spell has offered to forget.

const el = {
  app: byTestId('app'),
  panel: byTestId('signin'),
  form: byTestId('signin-form'),
  email: byTestId('signin-email'),
  password: byTestId('signin-password'),
  name: byTestId('signin-name'),
  message: byTestId('signin-message'),
  signup: byTestId('signup-submit'),
  account: byTestId('account'),
  accountName: byTestId('account-name'),
  signOut: byTestId('sign-out'),
  copy: byTestId('device-copy'),
  copyNote: byTestId('device-copy-note'),
  forget: byTestId('forget-device'),
};

async function signOut(message = '') {
  await api('POST', '/api/auth/logout', {}).catch(() => {});
  state.account = {mode: 'accounts', signedOut: true};
  el.message.textContent = message;
  notify('space');
}

// Shows "Remove this device's copy" while the device keeps an account's
// work, saying how many changes would be lost with it.
async function offerToForget() {
  const kept = localStorage.getItem(kAccountKey);
  el.copy.hidden = !kept;
  if (!kept) return;
  let unsent = 0;
  try {
    unsent = (await rpc('status')).sync?.pending ?? 0;
  } catch {
    // The database is not up: the note stays general.
  }
  el.copyNote.textContent = 'This device keeps a copy of the last account\u2019s work' +
    (unsent ? `, with ${unsent} change${unsent === 1 ? '' : 's'} not yet sent, which ` +
              'removing it loses.' : '.');
}

async function forgetDevice() {
  el.forget.disabled = true;
  try {
    await rpc('forgetDevice');
    localStorage.removeItem(kAccountKey);
    el.copy.hidden = true;
    el.message.textContent = 'This device\u2019s copy is removed. Sign in to start fresh.';
  } catch (e) {
    el.message.textContent = `Could not remove this device\u2019s copy: ${e.message}`;
  } finally {
    el.forget.disabled = false;
  }
}

async function submit(path) {
  const body = {email: el.email.value.trim(), password: el.password.value};
  if (path.endsWith('signup')) body.name = el.name.value.trim();
  el.message.textContent = '';
  try {
    await api('POST', path, body);
  } catch (e) {
    el.message.textContent = e.code === kOffline
      ? 'The server cannot be reached; try again when you are online.' : e.message;
    return;
  }
  el.password.value = '';
  await loadSpaces();
  const id = state.account?.id;
  const before = localStorage.getItem(kAccountKey);
  if (id && before && before !== id) {
    await signOut('This browser keeps another account\u2019s offline copy. Sign in as that ' +
                  'account, or remove the copy below and sign in again to start fresh.');
    return;
  }
  if (id) localStorage.setItem(kAccountKey, id);
  poke();  // Sync now, as this account.
}

export function render() {
  const account = state.account;
  const signedOut = account?.mode === 'accounts' && account.signedOut === true;
  el.panel.hidden = !signedOut;
  el.app.dataset.signedOut = signedOut ? 'true' : 'false';
  const signedIn = account?.mode === 'accounts' && !signedOut;
  el.account.hidden = !signedIn;
  el.accountName.textContent = signedIn ? (account.name || account.email || '') : '';
  // Once per signing out (also one found on opening the app).
  if (signedOut && !offered) offerToForget();
  if (!signedOut) el.copy.hidden = true;
  offered = signedOut;
  if (signedOut && !el.panel.contains(document.activeElement)) el.email.focus();
}

export function init() {
  el.form.addEventListener('submit', (e) => {
    e.preventDefault();
    submit('/api/auth/login');
  });
  el.signup.addEventListener('click', () => submit('/api/auth/signup'));
  el.signOut.addEventListener('click', () => signOut());
  el.forget.addEventListener('click', () => forgetDevice());
}
