// Boards: a board's columns and their cards (a task or a note). A card moves
// by drag and drop, or from the keyboard with its "Move to" control; either
// way one mutation, card.update {id, fields: {column, position}, base}.

import {rpc} from '../rpc.js';
import {findRecord, records, spaceTasks, state} from '../state.js';
import {showToast} from '../toast.js';
import {byTestId, h} from '../util.js';

const body = byTestId('boards-body');
let openId = null;
let message = '';
let ctx = null;

const kDefaultColumns = ['To do', 'Doing', 'Done'];
const newColumnId = () => `col-${crypto.randomUUID().slice(0, 8)}`;

const available = () => (state.kinds ?? []).includes('board') && (state.kinds ?? []).includes('card');

function say(text) {
  message = text;
  render();
}

async function createBoard(title) {
  const columns = kDefaultColumns.map((t) => ({id: newColumnId(), title: t}));
  try {
    const {id} = await rpc('mutate', {name: 'board.create',
                                      args: {spaceId: state.space, title, description: '', columns}});
    openId = id;
    say(`Board “${title}” created.`);
  } catch (e) {
    say(`The board was not created: ${e.message}`);
  }
}

const cardsOf = (board, column) => records('card')
  .filter((c) => c.board === board.id && c.column === column.id)
  .sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || a.id.localeCompare(b.id));

// Positions leave gaps (core/boards/card.h), so a card can later go between two.
const kPositionGap = 1024;
const endPosition = (board, column) =>
  cardsOf(board, column).reduce((max, c) => Math.max(max, (c.position ?? 0) + kPositionGap), 0);

const cardTitle = (card) => (card.task ? findRecord(card.task)?.title : null) ?? card.note ?? '(card)';

async function addCard(board, column, value) {
  if (!value) return;
  const args = {spaceId: state.space, board: board.id, column: column.id,
                position: endPosition(board, column)};
  // A card holds a task or a note, never both.
  if (value.startsWith('task:')) {
    args.task = value.slice(5);
  } else {
    args.note = value.slice(5);
  }
  try {
    await rpc('mutate', {name: 'card.create', args});
  } catch (e) {
    say(`The card was not added: ${e.message}`);
  }
}

async function moveCard(board, card, columnId) {
  const column = board.columns.find((c) => c.id === columnId);
  if (!column || column.id === card.column) return;
  const position = endPosition(board, column);
  try {
    const was = {column: card.column, position: card.position};
    await rpc('mutate', {name: 'card.update', args: {
      id: card.id, fields: {column: column.id, position}, base: was,
    }});
    message = `Moved “${cardTitle(card)}” to ${column.title}.`;
    showToast(message, () => rpc('mutate', {name: 'card.update', args: {
      id: card.id, fields: was, base: {column: column.id, position},
    }}));
  } catch (e) {
    message = `The card was not moved: ${e.message}`;
  }
}

function cardNode(board, card) {
  const title = cardTitle(card);
  const move = h('select', {class: 'card-move', dataset: {testid: 'card-move'},
                            'aria-label': `Move “${title}” to column`},
                 board.columns.map((c) => h('option', {value: c.id, selected: c.id === card.column},
                                            c.title)));
  move.addEventListener('change', () => moveCard(board, card, move.value));
  const data = {testid: 'board-card', id: card.id};
  if (card.task) data.taskId = card.task;  // What the assistant's hub_read_surface reads.
  const li = h('li', {class: 'board-card', draggable: 'true', dataset: data},
    card.task
      ? h('a', {href: `#/tasks/${encodeURIComponent(card.task)}`, class: 'card-title'}, title)
      : h('span', {class: 'card-title'}, title),
    move);
  li.addEventListener('dragstart', (e) => {
    e.dataTransfer.setData('text/plain', card.id);
    e.dataTransfer.effectAllowed = 'move';
    li.classList.add('dragging');
  });
  li.addEventListener('dragend', () => li.classList.remove('dragging'));
  return li;
}

function addForm(board, column) {
  const choose = h('select', {'aria-label': `Add to ${column.title}`, dataset: {testid: 'card-add-select'}},
    h('option', {value: ''}, 'Add a task…'),
    spaceTasks().filter((t) => !records('card').some((c) => c.board === board.id && c.task === t.id))
      .map((t) => h('option', {value: `task:${t.id}`}, t.title)));
  const note = h('input', {placeholder: 'or a note', 'aria-label': `Note for ${column.title}`,
                           dataset: {testid: 'card-add-note'}, maxLength: 500});
  const form = h('form', {class: 'card-add', dataset: {testid: 'card-add'}}, choose, note,
                 h('button', {type: 'submit', dataset: {testid: 'card-add-button'}}, 'Add'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const value = choose.value || (note.value.trim() ? `note:${note.value.trim()}` : '');
    note.value = '';
    choose.value = '';
    addCard(board, column, value);
  });
  return form;
}

function columnNode(board, column) {
  const section = h('section', {class: 'board-column', dataset: {testid: 'board-column', columnId: column.id},
                                'aria-label': column.title},
    h('h3', {}, column.title, h('span', {class: 'count'}, ` ${cardsOf(board, column).length}`)),
    h('ol', {class: 'card-list'}, cardsOf(board, column).map((card) => cardNode(board, card))),
    addForm(board, column));
  section.addEventListener('dragover', (e) => {
    e.preventDefault();
    section.classList.add('drop-target');
  });
  section.addEventListener('dragleave', () => section.classList.remove('drop-target'));
  section.addEventListener('drop', (e) => {
    e.preventDefault();
    section.classList.remove('drop-target');
    const card = records('card').find((c) => c.id === e.dataTransfer.getData('text/plain'));
    if (card) moveCard(board, card, column.id);
  });
  return section;
}

export function open(id) {
  openId = id;
  const card = records('card').find((c) => c.id === id);
  if (card) openId = card.board;
  render();
}

// What the person has half-entered in each column's add form (and where
// the focus was), so a sync re-rendering the board does not drop it.
function saveDrafts(active) {
  const drafts = [];
  for (const form of main.querySelectorAll('[data-testid="card-add"]')) {
    const column = form.closest('[data-column-id]').dataset.columnId;
    const [select, note] = form.querySelectorAll('select, input');
    const focused = form.contains(active) ? active.dataset.testid : null;
    if (select.value || note.value || focused) {
      drafts.push({column, select: select.value, note: note.value, focused});
    }
  }
  return drafts;
}

function restoreDrafts(drafts) {
  for (const d of drafts) {
    const form = main.querySelector(`[data-column-id="${d.column}"] [data-testid="card-add"]`);
    if (!form) continue;
    const [select, note] = form.querySelectorAll('select, input');
    if ([...select.options].some((o) => o.value === d.select)) select.value = d.select;
    note.value = d.note;
    if (d.focused) form.querySelector(`[data-testid="${d.focused}"]`)?.focus();
  }
}

// The create form is built once (typing in it survives syncs); the board
// below is rebuilt on each change.
let header = null;
let main = null;
let focusCard = null;  // The card whose move control had focus, kept after a move.

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

function buildHeader() {
  const title = h('input', {placeholder: 'New board name', 'aria-label': 'New board name',
                            dataset: {testid: 'new-board-title'}, maxLength: 500});
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
// assistant's hub_edit_layout) orders the tabs: its tiles top to bottom and
// left to right, then the boards it does not place, oldest first.
function inLayoutOrder(boards) {
  const layout = records('board_layout')[0];
  const tiles = Array.isArray(layout?.tiles) ? [...layout.tiles] : [];
  tiles.sort((a, b) => a.y - b.y || a.x - b.x);
  const rank = new Map(tiles.map((t, i) => [t.id, i]));
  const last = tiles.length;
  return [...boards].sort((a, b) => (rank.get(a.id) ?? last) - (rank.get(b.id) ?? last));
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
  const active = document.activeElement;
  if (active?.matches?.('[data-testid="card-move"]')) focusCard = active.closest('[data-id]')?.dataset.id;
  const drafts = saveDrafts(active);
  const boards = inLayoutOrder(records('board'));
  const board = boards.find((b) => b.id === openId) ?? boards[0] ?? null;
  const picker = h('div', {class: 'board-tabs', role: 'list'}, boards.map((b) =>
    h('button', {type: 'button', role: 'listitem', dataset: {testid: 'board-tab', id: b.id},
                 'aria-current': b.id === board?.id ? 'true' : null,
                 onclick: () => { openId = b.id; render(); }}, b.title)));
  const columns = Array.isArray(board?.columns) ? board.columns : [];
  main.replaceChildren(picker,
    h('p', {class: 'note', role: 'status', dataset: {testid: 'board-message'}}, message),
    board ? h('div', {class: 'board', dataset: {testid: 'board', id: board.id}},
              columns.map((c) => columnNode({...board, columns}, c)))
          : h('p', {class: 'empty'}, 'No boards yet. Name one above to start.'));
  restoreDrafts(drafts);
  if (focusCard && document.activeElement === document.body) {
    main.querySelector(`[data-testid="board-card"][data-id="${focusCard}"] [data-testid="card-move"]`)?.focus();
  }
  focusCard = null;
}

export function init(c) {
  ctx = c;
}
