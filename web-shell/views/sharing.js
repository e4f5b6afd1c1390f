// Sharing: the open space's members and roles (spec 002 §2 "Spaces and
// sharing"), through the server's /api/spaces routes: an owner shares by
// email in a role, which invites (nobody joins, or becomes an owner, without
// accepting), sees who has not answered yet and may withdraw it, changes
// roles and removes members; anyone answers their own invitations and may
// leave; a new space can be made here. These are the person's own decisions,
// so the assistant never makes them. Sharing needs the network and accounts:
// local mode and offline say so instead.

import {api} from '../api.js';
import {loadSpaces, setSpace, state} from '../state.js';
import {byTestId, fill, h, keepFocus, messageAfter, oneAtATime, setMaxLength} from '../util.js';

const body = byTestId('sharing-body');
const kRoles = ['owner', 'editor', 'viewer', 'guest'];
const kRoleNotes = {
  owner: 'shares and manages the space',
  editor: 'changes everything in it',
  viewer: 'reads only',
  guest: 'adds and edits tasks, pages and comments',
};

let members = null;  // For membersOf; null until read.
let pending = [];  // The space's invitations not yet answered (owners see them).
let invitations = [];  // The person's own, from any space.
let membersOf = null;  // "account space": what was read, and for whom.
let message = '';
let shownTo = null;  // The account the view last showed.

const readMembers = oneAtATime(async (space) => {
  const key = `${state.account?.id} ${space}`;
  // The person's invitations stand whatever becomes of the space's list.
  const [listed, mine] = await Promise.allSettled([
    api('GET', `/api/spaces/${encodeURIComponent(space)}/members`),
    api('GET', '/api/invitations'),
  ]);
  // Signed out meanwhile (a refused sign-in signs out at once): nothing read
  // stands for this key, so the next sign-in reads again.
  if ([listed, mine].some((r) => r.status === 'rejected' && r.reason.status === 401)) {
    await loadSpaces();
    if (state.account?.signedOut) {
      membersOf = null;
      return;
    }
  }
  invitations = mine.status === 'fulfilled' ? mine.value.invitations : [];
  if (listed.status === 'fulfilled') {
    members = listed.value.members;
    pending = listed.value.invitations ?? [];
  } else {
    members = [];
    pending = [];
    message = `Could not read the members: ${listed.reason.message}`;
  }
  membersOf = key;
});

async function loadMembers(space) {
  await readMembers(space);
  render();
}

// Runs `work`, then says `done` (or why it failed) and reads the members again.
async function act(work, done) {
  message = await messageAfter(work, done);
  await loadSpaces();
  // The list stays as it was until the new one is read, instead of blanking
  // (a read begun before the change may hold the old list: read again).
  await readMembers.running();
  await loadMembers(state.space);
}

const memberPath = (accountId) =>
  `/api/spaces/${encodeURIComponent(state.space)}/members/${encodeURIComponent(accountId)}`;

function roleSelect(value, label, onchange, testid) {
  return h('select', {'aria-label': label, dataset: {testid}, onchange},
           kRoles.map((r) => h('option', {value: r, selected: r === value}, r)));
}

function memberRow(m, me, owner) {
  const who = m.name ? `${m.name} (${m.email})` : m.email;
  const mine = m.accountId === me;
  return h('li', {class: 'member', dataset: {testid: 'member', email: m.email, role: m.role}},
    h('span', {class: 'member-name'}, mine ? `${who} \u2014 you` : who),
    owner && !mine
      ? roleSelect(m.role, `Role of ${who}`, (e) => {
        const role = e.target.value;
        act(() => api('PUT', `/api/spaces/${encodeURIComponent(state.space)}/members`,
                      {email: m.email, role}),
            (reply) => sharedMessage(reply, who, role));
      }, 'member-role')
      : h('span', {class: 'badge', dataset: {testid: 'member-role-text'}}, m.role),
    owner && !mine
      ? h('button', {type: 'button', dataset: {testid: 'member-remove'},
                     'aria-label': `Remove ${who}`,
                     onclick: () => act(() => api('DELETE', memberPath(m.accountId)),
                                        `${who} no longer has this space.`)}, 'Remove')
      : null);
}

// What a share did: a member's role changed at once, or someone was asked.
function sharedMessage(reply, who, role) {
  if (reply.member) return `${who} is now ${role}.`;
  return role === 'owner' && members?.some((m) => m.email === reply.invitation.email)
    ? `Asked ${who} to become an owner; they become one when they accept.`
    : `Invited ${who} as ${role}; they join when they accept.`;
}

function pendingRow(inv) {
  return h('li', {class: 'member', dataset: {testid: 'pending-invitation', email: inv.email,
                                               role: inv.role}},
    h('span', {class: 'member-name'}, `${inv.email} — invited`),
    h('span', {class: 'badge'}, inv.role),
    h('button', {type: 'button', dataset: {testid: 'pending-withdraw'},
                 'aria-label': `Withdraw the invitation to ${inv.email}`,
                 onclick: () => act(
                   () => api('DELETE', `/api/spaces/${encodeURIComponent(state.space)}` +
                                       `/invitations/${encodeURIComponent(inv.id)}`),
                   `The invitation to ${inv.email} is withdrawn.`)}, 'Withdraw'));
}

function invitationRow(inv) {
  const from = inv.fromName ? `${inv.fromName} (${inv.from})` : inv.from;
  const space = inv.spaceName || 'a space';
  const answer = (verb) => `/api/invitations/${encodeURIComponent(inv.id)}/${verb}`;
  return h('li', {class: 'member', dataset: {testid: 'invitation', space: inv.spaceId}},
    h('span', {class: 'member-name'}, `${from} invites you to “${space}” as ${inv.role}.`),
    h('button', {type: 'button', dataset: {testid: 'invitation-accept'},
                 'aria-label': `Accept the invitation to ${space}`,
                 onclick: () => act(async () => {
                   const joined = await api('POST', answer('accept'), {});
                   await loadSpaces();
                   setSpace(joined.space.id);
                 }, `You joined “${space}” as ${inv.role}.`)}, 'Accept'),
    h('button', {type: 'button', dataset: {testid: 'invitation-decline'},
                 'aria-label': `Decline the invitation to ${space}`,
                 onclick: () => act(() => api('POST', answer('decline'), {}),
                                    `You declined “${space}”.`)}, 'Decline'));
}

// The two forms are made once and kept: a render (a sync landing, the list
// read again) must not drop what the person is typing into them.
let shareFormEl = null;
let newSpaceFormEl = null;

function shareForm() {
  shareFormEl ??= makeShareForm();
  return shareFormEl;
}

function newSpaceForm() {
  newSpaceFormEl ??= makeNewSpaceForm();
  // Made once, maybe before the module said its limits: set on each render.
  setMaxLength(newSpaceFormEl.elements.namedItem('name'), state.limits?.maxSpaceNameChars);
  return newSpaceFormEl;
}

function makeShareForm() {
  const email = h('input', {type: 'email', required: true, placeholder: 'name@example.com',
                            'aria-label': 'Email of the person to share with',
                            dataset: {testid: 'share-email'}});
  const role = roleSelect('editor', 'Their role', null, 'share-role');
  return h('form', {class: 'share-form', dataset: {testid: 'share-form'}, onsubmit: (e) => {
    e.preventDefault();
    const address = email.value.trim();
    if (!address) return;
    const wanted = role.value;
    act(async () => {
      const reply = await api('PUT', `/api/spaces/${encodeURIComponent(state.space)}/members`,
                              {email: address, role: wanted});
      email.value = '';
      return reply;
    }, (reply) => sharedMessage(reply, address, wanted));
  }}, email, role, h('button', {type: 'submit', dataset: {testid: 'share-submit'}}, 'Share'));
}

function makeNewSpaceForm() {
  const name = h('input', {type: 'text', name: 'name', required: true, placeholder: 'Name',
                           'aria-label': 'Name of the new space',
                           dataset: {testid: 'new-space-name'}});
  return h('form', {class: 'share-form', dataset: {testid: 'new-space-form'}, onsubmit: (e) => {
    e.preventDefault();
    const wanted = name.value.trim();
    if (!wanted) return;
    act(async () => {
      const made = await api('POST', '/api/spaces', {name: wanted});
      name.value = '';
      await loadSpaces();
      setSpace(made.space.id);
    }, `Made the space \u201C${wanted}\u201D.`);
  }}, name, h('button', {type: 'submit', dataset: {testid: 'new-space-submit'}}, 'New space'));
}

export function render() {
  const account = state.account;
  if (!account || account.mode === 'local') {
    // Addressed to the person using the app, who may not run the server:
    // what they can do, not how the operator switches modes (README).
    fill(body, h('div', {class: 'empty', dataset: {testid: 'sharing-local'}},
      h('p', {}, 'This Ensemble keeps one person\u2019s work, so there is no one to share ' +
                 'a space with yet.'),
      h('p', {}, 'To work on spaces with other people, ask whoever runs this Ensemble to turn ' +
                 'on accounts. Your tasks, pages and boards stay as they are, and you can share ' +
                 'them from here once you have signed in.')));
    return;
  }
  if (account.signedOut) {
    membersOf = null;
    fill(body);
    return;
  }
  if (state.sync && state.sync.online === false) {
    fill(body, h('p', {class: 'empty'}, 'Sharing needs the server; you are offline.'));
    return;
  }
  if (shownTo !== account.id) {
    message = '';  // Another person's last action is not theirs to read.
    shownTo = account.id;
  }
  if (membersOf !== `${account.id} ${state.space}`) {
    loadMembers(state.space);
    fill(body, h('p', {class: 'note'}, 'Reading the members\u2026'));
    return;
  }
  const space = state.spaces.find((s) => s.id === state.space);
  const owner = space?.role === 'owner';
  keepFocus(() => fill(body,
    h('p', {class: 'note', role: 'status', dataset: {testid: 'sharing-message'}}, message),
    h('p', {}, `${space?.name || 'This space'}: you are ${space?.role ?? 'a member'} ` +
               `(${kRoleNotes[space?.role] ?? ''}).`),
    invitations.length
      ? [h('h3', {}, 'Invitations to you'),
         h('ul', {class: 'member-list', dataset: {testid: 'invitation-list'}},
           invitations.map(invitationRow))]
      : null,
    h('ul', {class: 'member-list', dataset: {testid: 'member-list'}},
      (members ?? []).map((m) => memberRow(m, account.id, owner))),
    owner && pending.length
      ? [h('h3', {}, 'Not answered yet'),
         h('ul', {class: 'member-list', dataset: {testid: 'pending-list'}},
           pending.map(pendingRow))]
      : null,
    owner ? shareForm() : null,
    h('button', {type: 'button', dataset: {testid: 'leave-space'}, onclick: () => act(async () => {
      await api('DELETE', memberPath(account.id));
      await loadSpaces();
      if (state.spaces[0]) setSpace(state.spaces[0].id);
    }, 'You left the space.')}, 'Leave this space'),
    h('h3', {}, 'A new space'),
    newSpaceForm()));
}
