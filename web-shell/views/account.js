// Signing in, when the server keeps accounts (ENSEMBLE_ACCOUNTS=on): the
// sign-in form while the server wants one, the signed-in account and Sign
// out in the sidebar. Local mode (one person, the default) shows neither.
//
// This device's replica belongs to one account: a different account signing
// in here is signed out again with a message, so nobody reads or pushes
// another person's offline copy.

import {poke} from '../rpc.js';
import {loadSpaces, notify, state} from '../state.js';
import {byTestId} from '../util.js';

const kAccountKey = 'ensemble-account';

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
};

// The server's error message from a refused request, or a generic one.
async function errorOf(res) {
  try {
    return (await res.json()).error?.message ?? `HTTP ${res.status}`;
  } catch {
    return `HTTP ${res.status}`;
  }
}

async function post(path, body) {
  return fetch(path, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify(body ?? {}),
  });
}

async function signOut(message = '') {
  await post('/api/auth/logout').catch(() => {});
  state.account = {mode: 'accounts', signedOut: true};
  el.message.textContent = message;
  notify('space');
}

async function submit(path) {
  const body = {email: el.email.value.trim(), password: el.password.value};
  if (path.endsWith('signup')) body.name = el.name.value.trim();
  el.message.textContent = '';
  let res;
  try {
    res = await post(path, body);
  } catch {
    el.message.textContent = 'The server cannot be reached; try again when you are online.';
    return;
  }
  if (!res.ok) {
    el.message.textContent = await errorOf(res);
    return;
  }
  el.password.value = '';
  await loadSpaces();
  const id = state.account?.id;
  const before = localStorage.getItem(kAccountKey);
  if (id && before && before !== id) {
    await signOut('This browser keeps another account\u2019s offline copy. Sign in as that ' +
                  'account, or use another browser profile for this one.');
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
  if (signedOut && !el.panel.contains(document.activeElement)) el.email.focus();
}

export function init() {
  el.form.addEventListener('submit', (e) => {
    e.preventDefault();
    submit('/api/auth/login');
  });
  el.signup.addEventListener('click', () => submit('/api/auth/signup'));
  el.signOut.addEventListener('click', () => signOut());
}
