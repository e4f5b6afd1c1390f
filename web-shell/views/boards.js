// Boards: the task board, whose columns are the task statuses (moving a card
// changes its task's status, and a status changed anywhere moves the card),
// and the person's custom boards, whose columns they name and order and whose
// cards are tasks or notes. A card moves by drag and drop or from the
// keyboard with its "Move to" control; each move, removal and delete is one
// mutation and says so in a toast with Undo.

import {rpc} from '../rpc.js';
import {findRecord, maxChars, records, spaceTasks, state} from '../state.js';
import {showToast} from '../toast.js';
import {byTestId, h, kStatuses, statusLabel} from '../util.js';
import {addColumnNode, columnNode} from './board-columns.js';

const body = byTestId('boards-body');
// The task board's id in the tabs and the saved choice; custom boards have
// record ids, which never look like this.
const kTaskBoard = 'tasks';
let openId = localStorage.getItem('ensemble-board') ?? kTaskBoard;
let message = '';
let confirmDelete = null;  // The board whose delete waits for a yes.

const newColumnId = () => `col-${crypto.randomUUID().slice(0, 8)}`;
const available = () => (state.kinds ?? []).includes('board') && (state.kinds ?? []).includes('card');

function say(text) {
  message = text;
  render();
}

function choose(id) {
  openId = id;
  confirmDelete = null;
  localStorage.setItem('ensemble-board', id);
  message = '';
  render();
}

// ---- The task board. ----

async function setStatus(card, status) {
  const task = spaceTasks().find((t) => t.id === card.id);
  if (!task || task.status === status) return;
  const was = task.status;
  try {
    await rpc('updateTask', {id: task.id, fields: {status}, base: {status: was}});
    showToast(`Moved “${task.title}” to ${statusLabel(status)}.`, () =>
      rpc('updateTask', {id: task.id, fields: {status: was}, base: {status}}));
  } catch (e) {
    say(`“${task.title}” was not moved: ${e.message}`);
  }
}

function taskBoard() {
  const tasks = spaceTasks();
  return {
    id: kTaskBoard, custom: false,
    columns: kStatuses.map((s) => ({id: s.value, title: s.label})),
    cards: (status) => tasks.filter((t) => t.status === status)
      .map((t) => ({id: t.id, taskId: t.id, title: t.title})),
    move: setStatus,
  };
}

// ---- Custom boards. ----

// Positions leave gaps (core/boards/card.h), so a card can later go between
// two. Not a limit: our choice of gap; the core takes any position up to its
// maximum.
const kPositionGap = 1024;
const byPosition = (a, b) => (a.position ?? 0) - (b.position ?? 0) || a.id.localeCompare(b.id);
const cardTitle = (card) => (card.task ? findRecord(card.task)?.title : null) ?? card.note ?? '(card)';

async function mutate(name, args) {
  return rpc('mutate', {name, args});
}

function customBoard(board) {
  const columns = Array.isArray(board.columns) ? board.columns : [];
  const known = new Set(columns.map((c) => c.id));
  const all = records('card').filter((c) => c.board === board.id).sort(byPosition);
  // A card whose column was deleted elsewhere shows in the first one, so
  // nothing on the board goes out of sight.
  const columnOf = (c) => (known.has(c.column) ? c.column : columns[0]?.id);
  const cards = (columnId) => all.filter((c) => columnOf(c) === columnId)
    .map((c) => ({id: c.id, taskId: c.task ?? null, title: cardTitle(c), record: c}));
  const endOf = (columnId) =>
    all.filter((c) => c.column === columnId).reduce((m, c) => Math.max(m, (c.position ?? 0) + kPositionGap), 0);
  const label = (columnId) => columns.find((c) => c.id === columnId)?.title ?? columnId;

  return {
    id: board.id, custom: true, columns, cards,
    onBoard: (taskId) => all.some((c) => c.task === taskId),
    async move(card, columnId) {
      const was = {column: card.record.column, position: card.record.position};
      if (columnId === was.column || !known.has(columnId)) return;
      const now = {column: columnId, position: endOf(columnId)};
      try {
        await mutate('card.update', {id: card.id, fields: now, base: was});
        showToast(`Moved “${card.title}” to ${label(columnId)}.`,
                  () => mutate('card.update', {id: card.id, fields: was, base: now}));
      } catch (e) {
        say(`“${card.title}” was not moved: ${e.message}`);
      }
    },
    async remove(card) {
      try {
        await mutate('card.delete', {id: card.id});
        showToast(`Took “${card.title}” off “${board.title}”.`,
                  () => mutate('card.restore', {id: card.id}));
      } catch (e) {
        say(`“${card.title}” was not taken off the board: ${e.message}`);
      }
    },
    async add(column, what) {
      // A card holds a task or a note, never both.
      const args = {spaceId: state.space, board: board.id, column: column.id,
                    position: endOf(column.id), ...what};
      try {
        await mutate('card.create', args);
      } catch (e) {
        say(`The card was not added: ${e.message}`);
      }
    },
    columnAction: (column, action, value) => changeColumns(board, columns, all, column, action, value),
  };
}

// Adds, renames, moves or deletes a column: one board.update of the whole
// list, based on the list it changed, so two people's edits do not overwrite
// each other unseen.
async function changeColumns(board, columns, cards, column, action, value) {
  let next = [...columns];
  const i = column ? columns.findIndex((c) => c.id === column.id) : -1;
  let done = '';
  if (action === 'add') {
    next.push({id: newColumnId(), title: value});
    done = `Added the column “${value}”.`;
  } else if (action === 'rename') {
    if (!value || value === column.title) return;
    next[i] = {...column, title: value};
    done = `Renamed “${column.title}” to “${value}”.`;
  } else if (action === 'left' || action === 'right') {
    const j = action === 'left' ? i - 1 : i + 1;
    if (j < 0 || j >= next.length) return;
    [next[i], next[j]] = [next[j], next[i]];
    done = `Moved “${column.title}” ${action}.`;
  } else if (action === 'delete') {
    const held = cards.filter((c) => c.column === column.id).length;
    if (held) {
      closeMenu(`menu:${column.id}`);  // Out of the way of the cards to move.
      return say(`“${column.title}” still holds ${held} card${held === 1 ? '' : 's'}: ` +
                 'move them or take them off the board first.');
    }
    next = next.filter((c) => c.id !== column.id);
    done = `Deleted the column “${column.title}”.`;
  }
  try {
    await mutate('board.update', {id: board.id, fields: {columns: next}, base: {columns}});
    if (column) closeMenu(`menu:${column.id}`);
    if (action === 'delete') {
      showToast(done, () => mutate('board.update', {id: board.id, fields: {columns},
                                                    base: {columns: next}}));
      return say('');
    }
    say(done);
  } catch (e) {
    say(`The columns were not changed: ${e.message}`);
  }
}

async function createBoard(title) {
  try {
    // No columns yet: the person names them, in their order.
    const {id} = await mutate('board.create', {spaceId: state.space, title, description: '',
                                               columns: []});
    focusNext = 'add-column';
    choose(id);
    say(`Board “${title}” made. Name its first column.`);
  } catch (e) {
    say(`The board was not made: ${e.message}`);
  }
}

async function renameBoard(board, title) {
  if (!title || title === board.title) return;
  try {
    await mutate('board.update', {id: board.id, fields: {title}, base: {title: board.title}});
    closeMenu('board-menu');
    say(`Renamed the board to “${title}”.`);
  } catch (e) {
    say(`The board was not renamed: ${e.message}`);
  }
}

async function deleteBoard(board) {
  confirmDelete = null;
  try {
    await mutate('board.delete', {id: board.id});
    choose(kTaskBoard);
    showToast(`“${board.title}” moved to Trash.`, async () => {
      await mutate('board.restore', {id: board.id});
      choose(board.id);
    });
  } catch (e) {
    say(`“${board.title}” was not deleted: ${e.message}`);
  }
}

function boardHead(board, cardCount) {
  if (!board) {
    return h('div', {class: 'board-head'}, h('h2', {}, 'Tasks'),
      h('p', {class: 'note'}, 'The columns are the task statuses: moving a card changes its status.'));
  }
  if (confirmDelete === board.id) {
    return h('div', {class: 'board-head confirm', role: 'alert', dataset: {testid: 'board-delete-ask'}},
      h('p', {}, `Delete “${board.title}”? It goes to Trash with its ${cardCount} ` +
                 `card${cardCount === 1 ? '' : 's'}, and comes back from there.`),
      h('button', {type: 'button', class: 'danger', dataset: {testid: 'board-delete-confirm'},
                   onclick: () => deleteBoard(board)}, 'Delete board'),
      h('button', {type: 'button', dataset: {testid: 'board-delete-cancel'},
                   onclick: () => { confirmDelete = null; render(); }}, 'Cancel'));
  }
  const name = h('input', {value: board.title, maxLength: maxChars('board', 'title'),
                           'aria-label': 'New name for this board',
                           dataset: {testid: 'board-rename-input', key: 'board-name'}});
  const rename = h('form', {class: 'inline-form'}, name,
                   h('button', {type: 'submit', dataset: {testid: 'board-rename-save'}}, 'Rename'));
  rename.addEventListener('submit', (e) => {
    e.preventDefault();
    renameBoard(board, name.value.trim());
  });
  return h('div', {class: 'board-head'}, h('h2', {}, board.title),
    h('details', {class: 'board-menu', dataset: {testid: 'board-menu', key: 'board-menu'}},
      h('summary', {}, 'Board options'),
      h('div', {class: 'menu-body'}, rename,
        h('button', {type: 'button', dataset: {testid: 'board-delete'},
                     onclick: () => { confirmDelete = board.id; render(); }}, 'Delete board…'))));
}

// ---- Keeping what is typed across renders. ----

// The controls' state by data-key: values typed (not the ones the render
// put there), carets, open menus and the focus. A sync re-renders the board
// whole; this puts the person's part back.
let kept = new Map();
let focusNext = null;  // A data-key to focus after the next render.

function capture() {
  const active = document.activeElement;
  kept = new Map();
  for (const el of main.querySelectorAll('[data-key]')) {
    const k = el.dataset.key;
    const focused = el === active || (el.tagName === 'DETAILS' && el.contains(active) &&
                                      !active.dataset.key);
    const entry = {focused};
    if (el.tagName === 'DETAILS') entry.open = el.open;
    if (el.tagName === 'INPUT' && el.value !== el.defaultValue) entry.value = el.value;
    if (focused && typeof el.selectionStart === 'number') entry.caret = [el.selectionStart, el.selectionEnd];
    if (entry.focused || entry.open || 'value' in entry) kept.set(k, entry);
  }
}

// Closes the menu under `key`: a render may already have carried it open.
function closeMenu(key) {
  kept.delete(key);
  const el = main?.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (el) el.open = false;
}

function restore() {
  let focus = null;
  for (const el of main.querySelectorAll('[data-key]')) {
    const entry = kept.get(el.dataset.key);
    if (!entry) continue;
    if (entry.open) el.open = true;
    if ('value' in entry) el.value = entry.value;
    if (entry.focused) focus = el;
  }
  const wanted = focusNext && main.querySelector(`[data-key="${CSS.escape(focusNext)}"]`);
  if (wanted) focusNext = null;  // Else the board it is on has not shown yet.
  // The focused control was replaced. (Chromium may still report a removed
  // element as active until its next frame's focus fixup.)
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected;
  if (wanted) {
    wanted.focus();
  } else if (focus && lost) {
    (focus.tagName === 'DETAILS' ? focus.querySelector('summary') : focus).focus({preventScroll: true});
    const caret = kept.get(focus.dataset.key)?.caret;
    if (caret) focus.setSelectionRange(...caret);
    if (focus.value) focus.refreshMatches?.();
  }
}

// ---- The view. ----

// The create form is built once (typing in it survives syncs); the board
// below is rebuilt on each change.
let header = null;
let main = null;

// A sync re-rendering the board under a pressed pointer would swap the card
// being picked up for a copy, and the drag would never start (or would lose
// its source mid-way); so while the pointer is down or a card is dragged,
// renders wait and the last one runs on release.
let held = false;
let dragging = false;
let renderWaiting = false;

function release() {
  held = false;
  dragging = false;
  if (renderWaiting) {
    renderWaiting = false;
    render();
  }
}

// Built once the core's kinds are read, so its limits are known too.
function buildHeader() {
  const title = h('input', {placeholder: 'New board name', 'aria-label': 'New board name',
                            dataset: {testid: 'new-board-title'}, maxLength: maxChars('board', 'title')});
  const create = h('form', {class: 'board-create', dataset: {testid: 'new-board-form'}}, title,
                   h('button', {type: 'submit', class: 'primary', dataset: {testid: 'new-board'}}, 'New board'));
  create.addEventListener('submit', (e) => {
    e.preventDefault();
    const name = title.value.trim();
    if (!name) return;
    title.value = '';
    createBoard(name);
  });
  header = create;
  main = h('div', {});
  // Only a press that can pick a card up: a select's popup may swallow its release.
  main.addEventListener('pointerdown', (e) => {
    if (e.target.closest('.board-card') && !e.target.closest('select, input, button')) held = true;
  });
  main.addEventListener('dragstart', () => { dragging = true; });
  // A drag cancels the pointer (pointercancel) and ends with dragend instead.
  document.addEventListener('pointercancel', () => { if (!dragging) release(); });
  for (const end of ['pointerup', 'dragend', 'drop']) document.addEventListener(end, release);
}

// The board overview's layout (core/boards/board_layout.h, made with the
// assistant's hub_edit_layout) orders the custom boards' tabs: its tiles top
// to bottom and left to right, then the boards it does not place, oldest first.
function inLayoutOrder(boards) {
  const layout = records('board_layout')[0];
  const tiles = Array.isArray(layout?.tiles) ? [...layout.tiles] : [];
  tiles.sort((a, b) => a.y - b.y || a.x - b.x);
  const rank = new Map(tiles.map((t, i) => [t.id, i]));
  const last = tiles.length;
  return [...boards].sort((a, b) => (rank.get(a.id) ?? last) - (rank.get(b.id) ?? last));
}

export function open(id) {
  const card = records('card').find((c) => c.id === id);
  choose(card ? card.board : id);
}

export function render() {
  if (!available()) {
    body.replaceChildren(h('p', {class: 'empty', dataset: {testid: 'boards-unavailable'}},
      state.kinds ? 'Boards need a newer app version.' : 'Loading…'));
    return;
  }
  if (!header) buildHeader();
  if (held || dragging) {
    renderWaiting = true;
    return;
  }
  if (header.parentNode !== body) body.replaceChildren(header, main);
  capture();
  const boards = inLayoutOrder(records('board'));
  const board = boards.find((b) => b.id === openId) ?? null;
  const model = board ? customBoard(board) : taskBoard();
  const tab = (id, title) => h('button', {
    type: 'button', role: 'listitem', dataset: {testid: 'board-tab', id},
    'aria-current': id === model.id ? 'true' : null, onclick: () => choose(id)}, title);
  const cardCount = model.custom ? model.columns.reduce((n, c) => n + model.cards(c.id).length, 0) : 0;
  main.replaceChildren(
    h('div', {class: 'board-tabs', role: 'list', 'aria-label': 'Boards'},
      tab(kTaskBoard, 'Tasks'), boards.map((b) => tab(b.id, b.title))),
    boardHead(board, cardCount),
    h('p', {class: 'note', role: 'status', dataset: {testid: 'board-message'}}, message),
    h('div', {class: 'board', dataset: {testid: 'board', id: model.id}},
      model.columns.map((c, i) => columnNode(model, c, i)),
      model.custom && addColumnNode(model)));
  restore();
}

export function init() {}
