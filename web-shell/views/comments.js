// The comment thread of one task, inside its detail: each comment with its
// author and time, and add, edit (one's own), resolve or reopen, and delete
// (with Undo). Comments are the `comment` records targeting the task.
//
// Items are kept by comment id and patched, never rebuilt while being
// edited, so a sync landing mid-sentence keeps what was typed, in the new
// comment's box and in an open edit alike.

import {api} from '../api.js';
import {rpc} from '../rpc.js';
import {maxChars, records, state} from '../state.js';
import {showToast} from '../toast.js';
import {h, keepFocus} from '../util.js';

const timeFormat = new Intl.DateTimeFormat(undefined, {dateStyle: 'medium', timeStyle: 'short'});

// Names of the space's members by account id (accounts mode), read once per
// space when a comment by someone else first shows.
const memberNames = new Map();  // space -> Map(accountId -> name) | 'reading'
const namesRead = new Set();  // Threads to update once names arrive.

function memberName(accountId) {
  const names = memberNames.get(state.space);
  if (names instanceof Map) return names.get(accountId) ?? 'Another member';
  if (!names) {
    const space = state.space;
    memberNames.set(space, 'reading');
    api('GET', `/api/spaces/${encodeURIComponent(space)}/members`).then((reply) => {
      memberNames.set(space, new Map((reply.members ?? []).map((m) => [m.accountId, m.name || m.email])));
      for (const thread of namesRead) thread.update();
      namesRead.clear();
    }, () => memberNames.set(space, new Map()));
  }
  return 'Another member';
}

// True when the signed-in person wrote `comment`. In local mode everything
// is theirs; a comment not yet back from the server has no author yet and
// was written on this device.
const isMine = (comment) =>
  state.account?.mode !== 'accounts' || !comment.author || comment.author === state.account.id;

function authorName(comment) {
  if (state.account?.mode !== 'accounts') return 'You';
  if (isMine(comment)) return state.account.name || state.account.email || 'You';
  return memberName(comment.author);
}

// When a comment was written, in ms. The ids are ULIDs, whose first ten
// characters are that time; the replica's createdAt is read instead only
// when it is a plausible time (this build's listRecords cuts it to 32 bits).
const kCrockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function writtenAt(comment) {
  if (comment.createdAt > 1e12) return comment.createdAt;
  let ms = 0;
  for (const ch of comment.id.slice(0, 10).toUpperCase()) ms = ms * 32 + kCrockford.indexOf(ch);
  return ms;
}

const commentsOn = (taskId) =>
  records('comment').filter((c) => c.target === taskId && c.target_kind === 'task');

// The thread of task `taskId`: {element, update()}.
export function commentThread(taskId) {
  const items = new Map();  // comment id -> {li, comment, shown, editing}
  const list = h('ol', {class: 'comment-list', dataset: {testid: 'comment-list'}});
  const none = h('p', {class: 'comment-none', dataset: {testid: 'comment-none'}}, 'No comments yet.');
  const message = h('p', {class: 'comment-message', role: 'status', dataset: {testid: 'comment-message'}});
  const headingId = `comments-${taskId}`;
  const input = h('textarea', {id: `${headingId}-new`, rows: 2, maxLength: maxChars('comment', 'body'),
                               dataset: {testid: 'comment-input'}});
  const addButton = h('button', {type: 'submit', dataset: {testid: 'comment-add'}}, 'Add comment');
  const form = h('form', {class: 'comment-form'},
    h('label', {for: input.id}, 'Add a comment'), input, addButton);
  const element = h('section', {class: 'comments', 'aria-labelledby': headingId,
                                dataset: {testid: 'task-comments'}},
    h('h3', {id: headingId}, 'Comments'), list, none, form, message);

  const say = (text) => {
    message.textContent = text;
  };
  const mutate = (name, args) => rpc('mutate', {name, args});

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = input.value;
    if (!body.trim()) {
      say('Write the comment first, then add it.');
      input.focus();
      return;
    }
    addButton.disabled = true;
    try {
      await mutate('comment.create', {spaceId: state.space, target_kind: 'task', target: taskId, body});
      // Only what was sent goes: anything typed meanwhile stays.
      if (input.value === body) input.value = '';
      say('Comment added.');
    } catch (err) {
      say(`The comment was not added: ${err.message}`);
    } finally {
      addButton.disabled = false;
    }
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      form.requestSubmit();
    }
  });

  function startEdit(item) {
    const editor = h('textarea', {rows: 3, maxLength: maxChars('comment', 'body'),
                                  'aria-label': 'Edit your comment',
                                  dataset: {testid: 'comment-edit-input'}});
    editor.value = item.comment.body;
    item.editing = {editor, base: item.comment.body};
    paint(item, true);
    editor.focus();
  }
  function stopEdit(item) {
    item.editing = null;
    paint(item, true);
    item.li.querySelector('[data-testid="comment-edit"]')?.focus();
  }
  async function saveEdit(item) {
    const {editor, base} = item.editing;
    const body = editor.value;
    if (!body.trim()) {
      say('A comment needs some text; to take it away, delete it.');
      return;
    }
    if (body !== base) {
      try {
        await mutate('comment.update', {id: item.comment.id, fields: {body}, base: {body: base}});
      } catch (err) {
        if (err.code === 'SAVE_CONFLICT') {
          const now = commentsOn(taskId).find((c) => c.id === item.comment.id);
          if (now) item.editing.base = now.body;
          say('This comment was changed elsewhere while you edited it: Save again to keep yours.');
        } else {
          say(`The comment was not saved: ${err.message}`);
        }
        return;
      }
    }
    say('Comment saved.');
    stopEdit(item);
  }
  async function setResolved(comment, resolved) {
    try {
      await mutate('comment.update', {id: comment.id, fields: {resolved},
                                      base: {resolved: comment.resolved ?? 0}});
      say(resolved ? 'Comment resolved.' : 'Comment reopened.');
    } catch (err) {
      say(`That was not saved: ${err.message}`);
    }
  }
  async function remove(comment) {
    try {
      await mutate('comment.delete', {id: comment.id});
      showToast('Comment deleted.', () => mutate('comment.restore', {id: comment.id}));
    } catch (err) {
      say(`The comment was not deleted: ${err.message}`);
    }
  }

  // Builds the item's content anew when what it shows changed (or `force`);
  // an open edit keeps its textarea node, and so its text and caret.
  function paint(item, force = false) {
    const c = item.comment;
    const mine = isMine(c);
    const author = authorName(c);
    const key = JSON.stringify([c.body, c.resolved, author, mine, Boolean(item.editing)]);
    if (!force && key === item.shown) return;
    item.shown = key;
    item.li.dataset.resolved = c.resolved ? 'yes' : 'no';
    const when = new Date(writtenAt(c));
    const header = h('p', {class: 'comment-head'},
      h('strong', {dataset: {testid: 'comment-author'}}, author), ' ',
      h('time', {datetime: when.toISOString(), dataset: {testid: 'comment-time'}}, timeFormat.format(when)),
      c.resolved ? h('span', {class: 'badge', dataset: {testid: 'comment-resolved'}}, 'Resolved') : null);
    const body = item.editing
      ? h('div', {class: 'comment-editing'}, item.editing.editor,
          h('div', {class: 'editor-actions'},
            h('button', {type: 'button', class: 'primary', dataset: {testid: 'comment-edit-save'},
                         onclick: () => saveEdit(item)}, 'Save comment'),
            h('button', {type: 'button', dataset: {testid: 'comment-edit-cancel'},
                         onclick: () => stopEdit(item)}, 'Cancel')))
      : h('p', {class: 'comment-body', dataset: {testid: 'comment-body'}}, c.body);
    const actions = item.editing ? null : h('div', {class: 'comment-actions'},
      mine ? h('button', {type: 'button', dataset: {testid: 'comment-edit'}, 'aria-label': 'Edit your comment',
                          onclick: () => startEdit(item)}, 'Edit') : null,
      h('button', {type: 'button', dataset: {testid: 'comment-resolve'},
                   onclick: () => setResolved(c, c.resolved ? 0 : 1)}, c.resolved ? 'Reopen' : 'Resolve'),
      h('button', {type: 'button', dataset: {testid: 'comment-delete'},
                   'aria-label': `Delete the comment by ${author}`, onclick: () => remove(c)}, 'Delete'));
    keepFocus(() => item.li.replaceChildren(...[header, body, actions].filter(Boolean)));
  }

  const thread = {
    element,
    update() {
      const comments = commentsOn(taskId);
      const seen = new Set();
      let cursor = list.firstElementChild;
      for (const comment of comments) {
        seen.add(comment.id);
        let item = items.get(comment.id);
        if (!item) {
          item = {li: h('li', {class: 'comment', dataset: {testid: 'comment', id: comment.id}}),
                  comment, shown: null, editing: null};
          items.set(comment.id, item);
        }
        item.comment = comment;
        paint(item);
        if (cursor === item.li) cursor = cursor.nextElementSibling;
        else list.insertBefore(item.li, cursor);
      }
      for (const [id, item] of items) {
        if (seen.has(id)) continue;
        item.li.remove();
        items.delete(id);
      }
      none.hidden = comments.length > 0;
      if (memberNames.get(state.space) === 'reading') namesRead.add(thread);
    },
  };
  // Escape leaves an open edit before it closes the detail.
  element.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    const item = [...items.values()].find((i) => i.editing && i.li.contains(e.target));
    if (!item) return;
    e.preventDefault();
    stopEdit(item);
  });
  return thread;
}
